// 楽天ウェブサービス extractors beyond the golden data: URL shapes, credentials kept out of output, odd answers.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import type { JsonPage } from '../../normalize/page.js';
import { pageUrl, rakutenApiOf } from './api-response.js';
import { rakutenRankingExtractor } from './ranking-extractor.js';
import { rakutenSearchExtractor } from './search-extractor.js';
import { rakutenWebservice } from './site.js';

const json = (url: string, value: unknown): JsonPage => ({ kind: 'json', url, charset: 'utf-8', json: value });
const APP = 'https://app.rakuten.co.jp/services/api';
const item = (over: Record<string, unknown> = {}) => ({
  itemName: 'テスト商品',
  itemPrice: 1100,
  taxFlag: 0,
  itemUrl: 'https://item.rakuten.co.jp/shop-a/item-1/',
  affiliateUrl: 'https://hb.afl.rakuten.co.jp/hgc/aff.secret.value.12345678/?pc=x',
  ...over,
});
const answer = (items: unknown[], page = 1, pageCount = 1) => ({ count: items.length, page, pageCount, Items: items });

describe('rakuten_webservice URLs', () => {
  const pageTypeOf = (href: string) =>
    rakutenWebservice.pageTypes.find((entry) => entry.matches(new URL(href)))?.pageType ?? null;

  it('matches every endpoint and version on both hosts, JSON only', () => {
    for (const [href, type] of [
      [`${APP}/IchibaItem/Search/20170706?keyword=a`, 'search'],
      [`${APP}/IchibaItem/Search/20220601?keyword=a&format=json`, 'search'],
      [`${APP}/IchibaItem/Ranking/20170628`, 'ranking'],
      [`${APP}/IchibaItem/Ranking/20220601?genreId=0`, 'ranking'],
      [`${APP}/Product/Search/20170426?keyword=a`, 'search'],
      [`${APP}/BooksBook/Search/20170404?title=a`, 'search'],
      [`${APP}/BooksTotal/Search/20170404?keyword=a`, 'search'],
      [`${APP}/Kobo/EbookSearch/20170426?keyword=a`, 'search'],
      ['https://openapi.rakuten.co.jp/ichibams/api/IchibaItem/Search/20260701?keyword=a', 'search'],
      ['https://openapi.rakuten.co.jp/ichibaranking/api/IchibaItem/Ranking/20220601', 'ranking'],
      ['https://openapi.rakuten.co.jp/ichibaproduct/api/Product/Search/20250801?productCode=1', 'search'],
      ['https://openapi.rakuten.co.jp/services/api/BooksBook/Search/20170404?isbn=1', 'search'],
      ['https://openapi.rakuten.co.jp/services/api/Kobo/EbookSearch/20170426?keyword=a', 'search'],
    ] as const) {
      expect(pageTypeOf(href), href).toBe(type);
    }
    for (const href of [
      `${APP}/IchibaItem/Search/20170706?format=xml`,
      `${APP}/IchibaItem/Search/20170706?callback=f`,
      `${APP}/IchibaItem/Search/2017070`,
      `${APP}/IchibaGenre/Search/20140222`,
      'https://app.rakuten.co.jp/ichibams/api/IchibaItem/Search/20220601',
      'https://openapi.rakuten.co.jp/ichibams/api/Product/Search/20250801',
    ]) {
      expect(pageTypeOf(href), href).toBeNull();
    }
  });

  it('lists every credential as a secret query parameter', () => {
    expect(rakutenWebservice.secretQueryParams).toEqual(['applicationId', 'accessKey', 'affiliateId']);
  });

  it('builds the next page without any credential, however the name is written', () => {
    const url = new URL(
      `${APP}/IchibaItem/Search/20220601?APPLICATIONID=1&keyword=%E3%81%82&application%49d=2;accessKey=pk_x&affiliateId=a.b&page=1&hits=30#applicationId=3`,
    );
    expect(pageUrl(url, 2)).toBe(`${APP}/IchibaItem/Search/20220601?keyword=%E3%81%82&hits=30&page=2`);
  });

  it('reads the API kind from the path, not from the host alone', () => {
    expect(rakutenApiOf(new URL(`${APP}/BooksTotal/Search/20170404`))).toBe('books');
    expect(rakutenApiOf(new URL(`${APP}/Kobo/EbookSearch/20170426`))).toBe('kobo');
  });
});

describe('rakuten_webservice extraction', () => {
  const secretRequest = `${APP}/IchibaItem/Search/20220601?applicationId=1234567890123456789&affiliateId=aff.secret.value.12345678&keyword=x`;

  it('never serves affiliateUrl, and drops any value that would echo a credential', () => {
    const r = rakutenSearchExtractor.extract(
      json(
        secretRequest,
        answer(
          [
            item(),
            item({
              itemName: '別の商品',
              itemUrl: 'https://item.rakuten.co.jp/shop-a/2/?scid=af_aff.secret.value.12345678',
            }),
          ],
          1,
          2,
        ),
      ),
    );
    validateExtraction('search', r);
    const served = JSON.stringify(r.data);
    expect(served).not.toContain('aff.secret.value.12345678');
    expect(served).not.toContain('1234567890123456789');
    expect(r.data.next_page).toBe(`${APP}/IchibaItem/Search/20220601?keyword=x&page=2`);
    expect((r.data.items as { url?: string }[])[1]!.url).toBeUndefined();
    expect(r.warnings).toContain('1 value(s) carrying a caller credential from the request URL left out');
  });

  it('reads formatVersion 1 and 2 entries alike', () => {
    const v1 = rakutenSearchExtractor.extract(json(`${APP}/IchibaItem/Search/20220601`, answer([{ Item: item() }])));
    const v2 = rakutenSearchExtractor.extract(json(`${APP}/IchibaItem/Search/20220601`, answer([item()])));
    expect(v1.data).toEqual(v2.data);
    expect(v1.data.items).toEqual([
      {
        title: 'テスト商品',
        url: 'https://item.rakuten.co.jp/shop-a/item-1/',
        price: 1100,
        currency: 'JPY',
        price_tax: 'included',
      },
    ]);
  });

  it('serves no price rather than a guessed one, and leaves untitled entries out with a warning', () => {
    const r = rakutenSearchExtractor.extract(
      json(`${APP}/IchibaItem/Search/20220601`, answer([item({ itemPrice: 'オープン' }), { itemName: '' }])),
    );
    validateExtraction('search', r);
    expect(r.data.items).toEqual([{ title: 'テスト商品', url: 'https://item.rakuten.co.jp/shop-a/item-1/' }]);
    expect(r.warnings).toContain('1 entry without a title left out');
  });

  it('fails on the openapi error shape and on answers that are not a list', () => {
    for (const body of [{ errors: { errorCode: 403, errorMessage: 'x' } }, { count: 1 }, ['x'], 'text']) {
      expect(() => rakutenSearchExtractor.extract(json(`${APP}/IchibaItem/Search/20220601`, body))).toThrow(KumoError);
    }
    expect(() =>
      rakutenRankingExtractor.extract({
        kind: 'html',
        url: `${APP}/IchibaItem/Ranking/20220601`,
        charset: 'utf-8',
        document: { children: [] } as never,
        jsonLd: [],
        scripts: [],
      }),
    ).toThrow(/reads the JSON answer/);
  });

  it('tells the API from the shape when the path does not say', () => {
    const r = rakutenRankingExtractor.extract(
      json('https://app.rakuten.co.jp/other', { Items: [{ Item: { ...item(), rank: 3 } }] }),
    );
    expect((r.data.items as { rank?: number }[])[0]!.rank).toBe(3);
  });
});
