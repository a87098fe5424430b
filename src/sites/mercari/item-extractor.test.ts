// メルカリ: URL patterns, the API request with its DPoP proof (checked with node:crypto), and extractor edge cases.
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import type { JsonPage } from '../../normalize/page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { createDpopProof } from './dpop.js';
import { mercariItemExtractor } from './item-extractor.js';
import { mercariItemId } from './item-url.js';
import { mercari, mercariItemRequest } from './site.js';

const item = mercari.pageTypes.find((e) => e.pageType === 'item')!;

const decode = (part: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Verifies a compact ES256 JWS against the key in its own header; returns header and claims. */
function verifyProof(jwt: string) {
  const parts = jwt.split('.');
  expect(parts).toHaveLength(3);
  const [h, p, s] = parts as [string, string, string];
  const header = decode(h);
  const claims = decode(p);
  const key = createPublicKey({ key: header.jwk as JsonWebKey, format: 'jwk' });
  const signature = Buffer.from(s, 'base64url');
  expect(signature).toHaveLength(64);
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, signature);
  return { header, claims, ok };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('mercari URL patterns', () => {
  it.each([
    'https://jp.mercari.com/item/m12871737078',
    'https://jp.mercari.com/item/m12871737078/',
    'https://jp.mercari.com/item/m12871737078?source_location=share&utm_source=x',
    'https://jp.mercari.com/en/item/m12871737078',
    'https://jp.mercari.com/zh-TW/item/m12871737078',
  ])('matches the item page %s', (url) => {
    expect(item.matches(new URL(url))).toBe(true);
    expect(mercariItemId(new URL(url))).toBe('m12871737078');
  });

  it.each([
    'https://jp.mercari.com/',
    'https://jp.mercari.com/search?keyword=cyclick',
    'https://jp.mercari.com/user/profile/485869194',
    'https://jp.mercari.com/shops/product/uU4Ahinr6rGNFLNYQpa9E7',
    'https://jp.mercari.com/item/12871737078',
    'https://jp.mercari.com/item/m12871737078/comments',
    'https://jp.mercari.com/fr/item/m12871737078',
  ])('does not match %s', (url) => {
    expect(item.matches(new URL(url))).toBe(false);
  });
});

describe('mercari api request', () => {
  it('maps the page URL onto items/get with the web app headers and a valid DPoP proof', () => {
    const before = Math.floor(Date.now() / 1000);
    const req = mercariItemRequest(new URL('https://jp.mercari.com/en/item/m12871737078?ref=top'));
    expect(req.url.href).toBe('https://api.mercari.jp/items/get?id=m12871737078&include_auction=true');
    expect(item.api?.hosts).toEqual(['api.mercari.jp']);
    expect(item.api?.hosts).toContain(req.url.hostname);
    const headers = req.headers!(req.url);
    expect(headers['X-Platform']).toBe('web');
    const { header, claims, ok } = verifyProof(headers.DPoP!);
    expect(ok).toBe(true);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: 'EC', crv: 'P-256' } });
    // The public key only: a private member (d) in the header would hand out the signing key.
    expect(Object.keys(header.jwk as object).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(claims.htu).toBe(req.url.href);
    expect(claims.htm).toBe('GET');
    expect(claims.jti).toMatch(UUID);
    expect(claims.uuid).toMatch(UUID);
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  });

  it('makes a new key, jti and device uuid for every request sent, retries included, bound to its URL', () => {
    const url = new URL('https://jp.mercari.com/item/m12871737078');
    const request = mercariItemRequest(url);
    const a = verifyProof(request.headers!(request.url).DPoP!);
    const b = verifyProof(request.headers!(request.url).DPoP!);
    const elsewhere = new URL('https://api.mercari.jp/items/get?id=m1');
    expect(verifyProof(request.headers!(elsewhere).DPoP!).claims.htu).toBe(elsewhere.href);
    expect(a.ok && b.ok).toBe(true);
    expect((a.header.jwk as { x: string }).x).not.toBe((b.header.jwk as { x: string }).x);
    expect(a.claims.jti).not.toBe(b.claims.jti);
    expect(a.claims.uuid).not.toBe(b.claims.uuid);
  });

  it('signs the claims it is given and fails verification once they are altered', () => {
    const jwt = createDpopProof({ url: 'https://api.mercari.jp/items/get?id=m1', method: 'get', issuedAt: 1663201171 });
    const { claims, ok } = verifyProof(jwt);
    expect(ok).toBe(true);
    expect(claims).toMatchObject({ iat: 1663201171, htm: 'GET', htu: 'https://api.mercari.jp/items/get?id=m1' });
    const [h, , s] = jwt.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, htu: 'https://api.mercari.jp/items/get?id=m2' })).toString(
      'base64url',
    );
    expect(verifyProof(`${h}.${forged}.${s}`).ok).toBe(false);
  });

  it('refuses a page URL that is not an item page (explicit work_type on another URL)', () => {
    expect(() => mercariItemRequest(new URL('https://jp.mercari.com/search?keyword=x'))).toThrow(KumoError);
  });

  it('is marked for review: private sellers and Mercari’s terms', () => {
    expect(item.review?.reason).toMatch(/private persons/);
    expect(mercari.route).toBe('api');
  });
});

const page = (json: unknown): JsonPage => ({
  kind: 'json',
  url: 'https://api.mercari.jp/items/get?id=m10000000001',
  charset: 'utf-8',
  json,
});
const base = {
  id: 'm10000000001',
  name: 'テスト商品',
  price: 1000,
  status: 'on_sale',
  seller: { id: 1, name: 'SELLERNAME', photo_url: 'https://static.mercdn.net/members/1.jpg' },
  buyer: { id: 2, name: 'BUYERNAME' },
  description: 'DESCRIPTIONTEXT 090-0000-0000',
  comments: [{ user: { name: 'COMMENTER' }, message: 'COMMENTTEXT' }],
};
const run = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const r = mercariItemExtractor.extract(page({ result: 'OK', data: { ...base, ...data }, meta: {}, ...extra }));
  validateExtraction('item', r);
  return r;
};
const failure = (json: unknown) => {
  try {
    mercariItemExtractor.extract(page(json));
  } catch (error) {
    expect(error).toBeInstanceOf(KumoError);
    return error as KumoError;
  }
  throw new Error('expected extraction_failed');
};

describe('mercari/item extractor', () => {
  it('never lets the seller, buyer, comments or description through', () => {
    const r = run({ shop: { display_name: 'NOTASHOP' } });
    const out = JSON.stringify(r);
    for (const secret of [
      'SELLERNAME',
      'BUYERNAME',
      'DESCRIPTIONTEXT',
      'COMMENTER',
      'COMMENTTEXT',
      '090-',
      'NOTASHOP',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(r.data.shop).toBeUndefined();
  });

  it('reads the shop only from a Mercari Shops listing, by its display name, never its internal id', () => {
    const shop = { name: 'wkkCxHU3Rx8WqyZ77YgMaF', displayName: 'みどり堂' };
    expect(run({ is_shop_item: 'yes', shop }).data.shop).toBe('みどり堂');
    expect(run({ is_shop_item: 'yes', shop: { name: 'wkkCxHU3Rx8WqyZ77YgMaF' } }).data.shop).toBeUndefined();
    expect(run({ is_shop_item: 'no', shop }).data.shop).toBeUndefined();
  });

  it('accepts a numeric-string price and refuses anything that is not whole yen', () => {
    const r = run({ price: ' 23000 ' });
    expect(r.data.price).toBe(23000);
    expect(r.provenance.price).toMatch(/numeric string/);
    for (const price of ['2,300円', '12.5', -1, 12.5, null, '']) {
      expect(failure({ result: 'OK', data: { ...base, price } }).code).toBe('extraction_failed');
    }
  });

  it('refuses a no-price listing (its flag or the 9999999 placeholder) and names only /price', () => {
    for (const data of [
      { price: 9999999, is_no_price: true },
      { price: '9999999', isNoPrice: true },
      { price: 9999999 },
      { price: 0, is_no_price: true },
      { price: 500, is_no_price: 'yes' },
    ]) {
      const error = failure({ result: 'OK', data: { ...base, ...data } });
      expect(error.code).toBe('extraction_failed');
      expect(error.message).toMatch(/no price/);
      expect(error.extras).toEqual({ body: { fields: ['/price'] } });
    }
    // The highest price is a price when the item says so; a false flag changes nothing else.
    expect(run({ price: 9999999, is_no_price: false }).data.price).toBe(9999999);
    expect(run({ price: 4800, is_no_price: false }).data.price).toBe(4800);
  });

  it('serves an auction at data.price, says it is a current bid, and reports a highest_bid that disagrees', () => {
    const auction = (info: Record<string, unknown>) =>
      run({ price: 21500, auction_info: { total_bids: 7, initial_price: 15000, state: 'STATE_BIDDING', ...info } });
    const agreeing = auction({ highest_bid: 21500 });
    expect(agreeing.data.price).toBe(21500);
    expect(agreeing.provenance.price).toMatch(/auction/);
    expect(agreeing.warnings).toEqual([
      'price: an auction listing; the price is the current bid and may rise until the auction ends',
    ]);
    const disagreeing = auction({ highest_bid: '23000' });
    expect(disagreeing.data.price).toBe(21500);
    expect(disagreeing.warnings).toContain(
      'price: data.auction_info.highest_bid disagrees with data.price; serving data.price',
    );
    expect(disagreeing.warnings.join(' ')).not.toMatch(/23000|21500/);
    // No auction part (the 2022 answers): no auction wording at all.
    expect(run({}).warnings).toEqual([]);
    expect(run({ auction_info: null }).provenance.price).toBe('json:$.data.price');
  });

  it('maps statuses in both spellings and leaves an unknown one out with a warning', () => {
    expect(run({ status: 'sold_out' }).data.availability).toBe('out_of_stock');
    expect(run({ status: 'ITEM_STATUS_ON_SALE' }).data).toMatchObject({
      availability: 'in_stock',
      availability_text: 'ITEM_STATUS_ON_SALE',
    });
    expect(run({ status: 'constructor' }).data.availability).toBeUndefined();
    const odd = run({ status: 'auction_pending' });
    expect(odd.data.availability).toBeUndefined();
    expect(odd.data.availability_text).toBeUndefined();
    expect(odd.warnings.join(' ')).not.toContain('auction_pending');
  });

  it('reads the shipping payer by code, and by name when the code is missing', () => {
    expect(run({ shipping_payer: { code: 'SELLER', name: '送料込み(出品者負担)' } }).data.shipping).toBe('included');
    expect(run({ shipping_payer: { name: '着払い(購入者負担)' } }).data.shipping).toBe('extra');
    expect(run({ shipping_payer: { id: 9 } }).data.shipping).toBeUndefined();
  });

  it('takes only https photo URLs and builds the canonical URL from an m<digits> id only', () => {
    const r = run({ photos: ['https://static.mercdn.net/a.jpg', 'javascript:alert(1)', 5], id: 'm10000000001' });
    expect(r.data.images).toEqual(['https://static.mercdn.net/a.jpg']);
    const odd = mercariItemExtractor.extract({
      ...page({ result: 'OK', data: { ...base, id: '../x', photos: [] } }),
      url: 'https://api.mercari.jp/items/get',
    });
    expect(odd.data.canonical_url).toBeUndefined();
    expect(odd.data.sku).toBeUndefined();
    expect(odd.data.images).toBeUndefined();
  });

  it('refuses an answer for another item than the URL names (page URL or items/get URL)', () => {
    const other = { result: 'OK', data: { ...base, id: 'm99999999999' } };
    expect(failure(other).code).toBe('extraction_failed');
    const asPage = { ...page(other), url: 'https://jp.mercari.com/en/item/m10000000001?x=1' };
    expect(() => mercariItemExtractor.extract(asPage)).toThrow(KumoError);
    expect(mercariItemExtractor.extract({ ...asPage, url: 'https://jp.mercari.com/item/m99999999999' }).data.sku).toBe(
      'm99999999999',
    );
  });

  it('turns error bodies and non-items into extraction_failed without quoting them', () => {
    const bodies = [
      { result: 'error', errors: [{ code: 'RecordNotFoundException', message: 'SECRETMSG' }], meta: {} },
      { code: 5, message: 'SECRETMSG' },
      { error: 'SECRETMSG' },
      { result: 'OK', data: 'SECRETMSG' },
      { result: 'OK', meta: {} },
      ['SECRETMSG'],
      'SECRETMSG',
    ];
    for (const body of bodies) {
      const e = failure(body);
      expect(e.code).toBe('extraction_failed');
      expect(JSON.stringify({ m: e.message, b: e.extras.body ?? null })).not.toContain('SECRETMSG');
    }
  });

  it.skipIf(!corpusAvailable())('gives the MANIFEST values for the real recording', () => {
    const json: unknown = JSON.parse(readFileSync(corpusPath('mercari/mercapi_test_item.response.json'), 'utf8'));
    const r = mercariItemExtractor.extract({ ...page(json), url: 'https://api.mercari.jp/items/get?id=m12871737078' });
    validateExtraction('item', r);
    expect(r.data).toMatchObject({
      title: 'DJ Sharpnel / PPPH!',
      price: 8000,
      availability_text: 'sold_out',
      shipping: 'included',
      condition_text: 'やや傷や汚れあり',
    });
    expect(r.data.images).toHaveLength(4);
    expect(JSON.stringify(r)).not.toContain('adieusos');
    for (const field of Object.keys(r.data)) expect(r.provenance[field]).toBeDefined();
  });
});
