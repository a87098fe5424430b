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
      ...['CD', 'DVD', 'Game', 'Magazine', 'Software', 'ForeignBook'].map(
        (shelf) => [`${APP}/Books${shelf}/Search/20170404?keyword=a`, 'search'] as const,
      ),
      ['https://openapi.rakuten.co.jp/services/api/BooksCD/Search/20170404?jan=1', 'search'],
    ] as const) {
      expect(pageTypeOf(href), href).toBe(type);
    }
    for (const href of [
      `${APP}/IchibaItem/Search/20170706?format=xml`,
      `${APP}/IchibaItem/Search/20170706?callback=f`,
      `${APP}/IchibaItem/Search/2017070`,
      `${APP}/IchibaGenre/Search/20140222`,
      `${APP}/IchibaTag/Search/20140222`,
      `${APP}/BooksGenre/Search/20121128`,
      `${APP}/Kobo/GenreSearch/20131010`,
      `${APP}/BooksComic/Search/20170404`,
      `${APP}/Travel/SimpleHotelSearch/20170426`,
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

  it('drops path parameters, where a credential can hide, from the next page', () => {
    const url = new URL(`${APP}/BooksCD/Search/20170404;applicationId=KUMOSECRETVALUE123?keyword=x&page=1`);
    expect(pageUrl(url, 2)).toBe(`${APP}/BooksCD/Search/20170404?keyword=x&page=2`);
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

  it('reads an answer without its list as empty only when its count says 0', () => {
    const empty = rakutenSearchExtractor.extract(
      json(`${APP}/IchibaItem/Search/20220601?elements=itemName`, { count: 0, page: 1, pageCount: 0 }),
    );
    validateExtraction('search', empty);
    expect(empty.data).toEqual({ items: [], next_page: null, total: 0, page: 1 });
    const books = rakutenSearchExtractor.extract(json(`${APP}/BooksCD/Search/20170404`, { count: '0', page: 1 }));
    expect(books.data.items).toEqual([]);
    for (const body of [
      { page: 1, pageCount: 0 },
      { count: 3, page: 1 },
      { count: 0, Items: {} },
    ]) {
      expect(() => rakutenSearchExtractor.extract(json(`${APP}/IchibaItem/Search/20220601`, body))).toThrow(
        /no Items list/,
      );
    }
    expect(() => rakutenSearchExtractor.extract(json(`${APP}/Product/Search/20170426`, { count: 1 }))).toThrow(
      /no Products list/,
    );
  });

  it('refuses a list none of whose entries has the API’s title field (another API’s answer)', () => {
    const gora = { count: 2, page: 1, pageCount: 1, Items: [{ golfCourseName: 'A' }, { golfCourseName: 'B' }] };
    expect(() => rakutenSearchExtractor.extract(json(`${APP}/IchibaItem/Search/20220601`, gora))).toThrow(
      /no entry of the Items list has the ichiba_item title field/,
    );
    const hotels = { count: 1, page: 1, Items: [{ hotel: [] }] };
    expect(() => rakutenSearchExtractor.extract(json(`${APP}/BooksTotal/Search/20170404`, hotels))).toThrow(KumoError);
  });

  it('takes the variant price range from the tier itemPriceBaseField names, and only a real range', () => {
    const sku = (over: Record<string, unknown>) =>
      item({
        itemPrice: 1200,
        itemPriceMin1: 900,
        itemPriceMax1: 5000,
        itemPriceMin2: 1000,
        itemPriceMax2: 4000,
        itemPriceMin3: 1200,
        itemPriceMax3: 3000,
        ...over,
      });
    const ranges = (entries: unknown[], url = `${APP}/IchibaItem/Search/20220601`) =>
      (rakutenSearchExtractor.extract(json(url, answer(entries))).data.items as { price_range?: unknown }[]).map(
        (i) => i.price_range ?? null,
      );
    expect(
      ranges([
        sku({ itemPriceBaseField: 'item_price_min3' }),
        sku({ itemPriceBaseField: 'item_price_min2', itemPrice: 1000 }),
        sku({}),
        sku({ itemPriceBaseField: 'item_price_min3', itemPriceMin3: 1200, itemPriceMax3: 1200 }),
        sku({ itemPriceBaseField: 'item_price_min3', itemPrice: 800 }),
        item(),
      ]),
    ).toEqual([{ min: 1200, max: 3000 }, { min: 1000, max: 4000 }, { min: 1200, max: 3000 }, null, null, null]);
    // The ranking answer writes the same fields as strings.
    const ranking = rakutenRankingExtractor.extract(
      json(`${APP}/IchibaItem/Ranking/20220601`, {
        Items: [
          {
            Item: {
              ...item({ itemPrice: '3980', rank: 1 }),
              hasPriceRange: 1,
              itemPriceBaseField: 'item_price_min3',
              itemPriceMin3: '3980',
              itemPriceMax3: '5980',
            },
          },
        ],
      }),
    );
    expect((ranking.data.items as { price_range?: unknown }[])[0]!.price_range).toEqual({ min: 3980, max: 5980 });
  });

  it('drops the rafcid that names the caller’s application from item and shop links, keeping the rest', () => {
    const request = `${APP}/IchibaItem/Search/20220601?applicationId=1111222233334444555&keyword=x`;
    const r = rakutenSearchExtractor.extract(
      json(
        request,
        answer([
          item({
            itemUrl: 'https://item.rakuten.co.jp/shop-a/item-1/?variantId=v2&rafcid=wsc_i_is_1111222233334444555',
            shopUrl: 'https://www.rakuten.co.jp/shop-a/?RAFCID=wsc_i_is_1111222233334444555',
          }),
        ]),
      ),
    );
    validateExtraction('search', r);
    expect(r.data.items).toMatchObject([
      { url: 'https://item.rakuten.co.jp/shop-a/item-1/?variantId=v2', shop_url: 'https://www.rakuten.co.jp/shop-a/' },
    ]);
    expect(JSON.stringify(r.data)).not.toContain('1111222233334444555');
    expect(r.warnings).toEqual([]);
  });

  it('tells the API from the shape when the path does not say', () => {
    const r = rakutenRankingExtractor.extract(
      json('https://app.rakuten.co.jp/other', { Items: [{ Item: { ...item(), rank: 3 } }] }),
    );
    expect((r.data.items as { rank?: number }[])[0]!.rank).toBe(3);
  });
});
