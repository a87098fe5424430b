// The output contract per page type (the `data` of a response) and the gate every extraction passes before serving.
import Type from 'typebox';
import type { Static, TSchema } from 'typebox';
import Value from 'typebox/value';
import Compile, { type Validator } from 'typebox/compile';
import { KumoError } from '../errors.js';
import type { Extraction } from './extractor.js';
import { isPageType, type PageType } from './page-type.js';

const Yen = Type.Integer({ minimum: 0, description: 'Whole yen.' });
const NonEmpty = Type.String({ minLength: 1 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const HttpUrl = Type.String({ pattern: '^https?://', minLength: 8 });
/** JST wall-clock time with its offset, as JMA writes it. */
const JstDateTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+09:00$' });
const Code = Type.String({ minLength: 1 });

const Availability = Type.Union([
  Type.Literal('in_stock'),
  Type.Literal('out_of_stock'),
  Type.Literal('preorder'),
  Type.Literal('backorder'),
  Type.Literal('limited'),
  Type.Literal('discontinued'),
]);
const PriceTax = Type.Union([Type.Literal('included'), Type.Literal('excluded'), Type.Literal('unknown')]);
const Shipping = Type.Union([
  Type.Literal('free'),
  Type.Literal('included'),
  Type.Literal('extra'),
  Type.Literal('unknown'),
]);
const Condition = Type.Union([
  Type.Literal('new'),
  Type.Literal('used'),
  Type.Literal('refurbished'),
  Type.Literal('collectible'),
  Type.Literal('unknown'),
]);
const Rate = Type.Number({ minimum: 0, description: 'Percent of the price (1 = 1%; Rakuten’s 10倍 = 10).' });

/** What the buyer pays and is told about it, shared by an item, each of its offers and each list entry. */
const commerceFields = {
  list_price: Type.Optional(Yen),
  points: Type.Optional(Type.Integer({ minimum: 0 })),
  points_rate: Type.Optional(Rate),
  shipping: Type.Optional(Shipping),
  shipping_fee: Type.Optional(Yen),
  free_shipping_threshold: Type.Optional(Yen),
  availability: Type.Optional(Availability),
  availability_text: Type.Optional(NonEmpty),
  condition: Type.Optional(Condition),
  condition_text: Type.Optional(NonEmpty),
  on_sale: Type.Optional(Type.Boolean()),
  sale_label: Type.Optional(NonEmpty),
};

export const OfferSchema = Type.Object(
  {
    condition: Condition,
    price: Yen,
    price_tax: PriceTax,
    seller: Type.Optional(NonEmpty),
    seller_url: Type.Optional(HttpUrl),
    on_sale: Type.Boolean(),
    sale_label: Type.Optional(NonEmpty),
    condition_text: Type.Optional(NonEmpty),
    list_price: Type.Optional(Yen),
    points: Type.Optional(Type.Integer({ minimum: 0 })),
    shipping: Type.Optional(Shipping),
    shipping_fee: Type.Optional(Yen),
    free_shipping_threshold: Type.Optional(Yen),
    availability: Type.Optional(Availability),
    availability_text: Type.Optional(NonEmpty),
    url: Type.Optional(HttpUrl),
  },
  { additionalProperties: false },
);
export type OfferData = Static<typeof OfferSchema>;

const PriceRange = Type.Object({ min: Yen, max: Yen }, { additionalProperties: false });

export const ItemSchema = Type.Object(
  {
    title: NonEmpty,
    price: Type.Integer({ minimum: 0, description: 'Whole yen; tax-included when the page shows a 税込 price.' }),
    currency: Type.Literal('JPY'),
    price_tax: PriceTax,
    price_excluding_tax: Type.Optional(Yen),
    ...commerceFields,
    price_range: Type.Optional(PriceRange),
    offers: Type.Optional(Type.Array(OfferSchema, { minItems: 1 })),
    /** How many offers (shops, sellers) the page says sell it: kakaku.com's n店舗, Amazon's 新品＆中古品 (n). */
    offer_count: Type.Optional(Type.Integer({ minimum: 0 })),
    brand: Type.Optional(NonEmpty),
    shop: Type.Optional(NonEmpty),
    shop_url: Type.Optional(HttpUrl),
    jan: Type.Optional(Type.String({ pattern: '^(\\d{8}|\\d{13})$' })),
    isbn: Type.Optional(Type.String({ pattern: '^\\d{13}$' })),
    sku: Type.Optional(NonEmpty),
    review_count: Type.Optional(Type.Integer({ minimum: 0 })),
    rating: Type.Optional(Type.Number({ minimum: 0, maximum: 5 })),
    images: Type.Optional(Type.Array(HttpUrl, { minItems: 1 })),
    canonical_url: Type.Optional(HttpUrl),
  },
  { additionalProperties: false },
);
export type ItemData = Static<typeof ItemSchema>;

/** One entry of a list page (`search`, `ranking`, `offers`): the item fields, all but `title` optional. */
export const ListItemSchema = Type.Object(
  {
    title: NonEmpty,
    url: Type.Optional(HttpUrl),
    rank: Type.Optional(Type.Integer({ minimum: 1 })),
    price: Type.Optional(Yen),
    currency: Type.Optional(Type.Literal('JPY')),
    price_tax: Type.Optional(PriceTax),
    price_excluding_tax: Type.Optional(Yen),
    ...commerceFields,
    price_range: Type.Optional(PriceRange),
    brand: Type.Optional(NonEmpty),
    shop: Type.Optional(NonEmpty),
    shop_url: Type.Optional(HttpUrl),
    jan: Type.Optional(Type.String({ pattern: '^(\\d{8}|\\d{13})$' })),
    isbn: Type.Optional(Type.String({ pattern: '^\\d{13}$' })),
    sku: Type.Optional(NonEmpty),
    review_count: Type.Optional(Type.Integer({ minimum: 0 })),
    rating: Type.Optional(Type.Number({ minimum: 0, maximum: 5 })),
    images: Type.Optional(Type.Array(HttpUrl, { minItems: 1 })),
  },
  { additionalProperties: false },
);
export type ListItemData = Static<typeof ListItemSchema>;

/** `search`, `ranking` and `offers` pages: the entries in page order; an empty result is an empty list. */
export const ListSchema = Type.Object(
  {
    /** What the list is of, when the page names it (the product of an offers page, a ranking's genre). */
    title: Type.Optional(NonEmpty),
    items: Type.Array(ListItemSchema),
    /** Absolute URL of the next page of the same list; null on the last page. */
    next_page: Nullable(HttpUrl),
    /** Hits in the whole result when the page says (not just this page). */
    total: Nullable(Type.Integer({ minimum: 0 })),
    /** This page's number (1-based) when the page says. */
    page: Nullable(Type.Integer({ minimum: 1 })),
    price_range: Type.Optional(PriceRange),
  },
  { additionalProperties: false },
);
export type ListData = Static<typeof ListSchema>;

const Area = { code: Code, name: NonEmpty };

export const ForecastSchema = Type.Object(
  {
    publishing_office: NonEmpty,
    report_datetime: JstDateTime,
    short_term: Nullable(
      Type.Object(
        {
          report_datetime: JstDateTime,
          areas: Type.Array(
            Type.Object(
              {
                ...Area,
                weathers: Type.Array(
                  Type.Object(
                    {
                      time: JstDateTime,
                      weather_code: Nullable(Code),
                      weather: Nullable(Type.String()),
                      wind: Nullable(Type.String()),
                      wave: Nullable(Type.String()),
                    },
                    { additionalProperties: false },
                  ),
                ),
                pops: Type.Array(
                  Type.Object(
                    { time: JstDateTime, pop: Nullable(Type.Integer({ minimum: 0, maximum: 100 })) },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
            { minItems: 1 },
          ),
          temperature_points: Type.Array(
            Type.Object(
              {
                ...Area,
                temps: Type.Array(
                  Type.Object({ time: JstDateTime, temp: Nullable(Type.Number()) }, { additionalProperties: false }),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    weekly: Nullable(
      Type.Object(
        {
          report_datetime: JstDateTime,
          areas: Type.Array(
            Type.Object(
              {
                ...Area,
                days: Type.Array(
                  Type.Object(
                    {
                      time: JstDateTime,
                      weather_code: Nullable(Code),
                      pop: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
                      reliability: Nullable(Type.String()),
                    },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          temperature_points: Type.Array(
            Type.Object(
              {
                ...Area,
                days: Type.Array(
                  Type.Object(
                    {
                      time: JstDateTime,
                      min: Nullable(Type.Number()),
                      min_upper: Nullable(Type.Number()),
                      min_lower: Nullable(Type.Number()),
                      max: Nullable(Type.Number()),
                      max_upper: Nullable(Type.Number()),
                      max_lower: Nullable(Type.Number()),
                    },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          temp_average: Type.Array(
            Type.Object(
              { ...Area, min: Nullable(Type.Number()), max: Nullable(Type.Number()) },
              { additionalProperties: false },
            ),
          ),
          precip_average: Type.Array(
            Type.Object(
              { ...Area, min: Nullable(Type.Number()), max: Nullable(Type.Number()) },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ForecastData = Static<typeof ForecastSchema>;

export const ForecastOverviewSchema = Type.Object(
  {
    publishing_office: NonEmpty,
    report_datetime: JstDateTime,
    target_area: NonEmpty,
    headline: Nullable(NonEmpty),
    text: NonEmpty,
  },
  { additionalProperties: false },
);
export type ForecastOverviewData = Static<typeof ForecastOverviewSchema>;

/**
 * `areas`: JMA's area names (`bosai/common/const/area.json`), one list per level from the widest to the narrowest,
 * ordered by code. `parent` and `children` are codes of the level above and below (an office's children are
 * class10s, a class15's are class20s); the same code can stand at two levels (宗谷地方 011000 is an office and a
 * class10), so a code is only unique within its list.
 */
const AreaCode6 = Type.String({ pattern: '^\\d{6}$' });
const AreaCode7 = Type.String({ pattern: '^\\d{7}$' });
const AreaNames = { name: NonEmpty, en_name: Nullable(NonEmpty) };
export const AreasSchema = Type.Object(
  {
    /** 地方 (regions): the 管区・地方気象台 groups of forecast offices. */
    centers: Type.Array(
      Type.Object(
        { code: AreaCode6, ...AreaNames, office_name: NonEmpty, children: Type.Array(AreaCode6) },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    /** 府県予報区: the code of `forecast/<code>.json`; office_name is the office that issues its forecasts. */
    offices: Type.Array(
      Type.Object(
        {
          code: AreaCode6,
          ...AreaNames,
          office_name: NonEmpty,
          parent: AreaCode6,
          children: Type.Array(AreaCode6),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    /** 一次細分区域: the areas of a forecast's weather and pops. */
    class10s: Type.Array(
      Type.Object(
        { code: AreaCode6, ...AreaNames, parent: AreaCode6, children: Type.Array(AreaCode6) },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    /** 市町村等をまとめた地域 (warnings). */
    class15s: Type.Array(
      Type.Object(
        { code: AreaCode6, ...AreaNames, parent: AreaCode6, children: Type.Array(AreaCode7) },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    /** 二次細分区域: municipalities (warnings), with their reading. */
    class20s: Type.Array(
      Type.Object(
        { code: AreaCode7, ...AreaNames, kana: Nullable(NonEmpty), parent: AreaCode6 },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);
export type AreasData = Static<typeof AreasSchema>;

const MissingReason = Type.Union([
  Type.Literal('not_applicable'),
  Type.Literal('unavailable'),
  Type.Literal('confidential'),
]);
const YearMonth = Type.String({ pattern: '^\\d{4}(-\\d{2})?$' });

/** e-Stat classification axes (CLASS_INF): the same shape in `table` and `meta`. */
const StatsClasses = Type.Array(
  Type.Object(
    {
      id: Code,
      name: NonEmpty,
      items: Type.Array(
        Type.Object(
          {
            code: Code,
            name: Type.String(),
            level: Nullable(Type.Integer({ minimum: 0 })),
            parent_code: Nullable(Code),
            unit: Nullable(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);
const SurveyPeriod = Nullable(Type.Object({ start: YearMonth, end: YearMonth }, { additionalProperties: false }));
const CodeName = Nullable(Type.Object({ code: Code, name: NonEmpty }, { additionalProperties: false }));

/** What e-Stat says about one statistical table (TABLE_INF), in `meta` and in each `list` entry. */
const statsTableInfo = {
  table_id: NonEmpty,
  title: NonEmpty,
  title_no: Nullable(Type.String()),
  stat_name: Nullable(NonEmpty),
  stat_code: Nullable(Code),
  gov_org: Nullable(NonEmpty),
  statistics_name: Nullable(Type.String()),
  cycle: Nullable(NonEmpty),
  survey_date: Nullable(Type.String()),
  survey_period: SurveyPeriod,
  open_date: Nullable(Type.String()),
  updated_date: Nullable(Type.String()),
  small_area: Nullable(Type.Integer({ minimum: 0 })),
  collect_area: Nullable(NonEmpty),
  main_category: CodeName,
  sub_category: CodeName,
  overall_total_number: Nullable(Type.Integer({ minimum: 0 })),
};

/** e-Stat style statistical tables: classification axes and one value per row. */
export const StatsTableSchema = Type.Object(
  {
    title: NonEmpty,
    table_id: NonEmpty,
    title_no: Nullable(Type.String()),
    stat_name: Nullable(NonEmpty),
    stat_code: Nullable(Code),
    gov_org: Nullable(NonEmpty),
    statistics_name: Nullable(Type.String()),
    survey_date: Nullable(Type.String()),
    survey_period: SurveyPeriod,
    open_date: Nullable(Type.String()),
    updated_date: Nullable(Type.String()),
    total_number: Nullable(Type.Integer({ minimum: 0 })),
    from_number: Nullable(Type.Integer({ minimum: 0 })),
    to_number: Nullable(Type.Integer({ minimum: 0 })),
    next_key: Nullable(Type.Integer({ minimum: 0 })),
    classes: StatsClasses,
    notes: Type.Array(Type.Object({ mark: Type.String(), meaning: Type.String() }, { additionalProperties: false })),
    rows: Type.Array(
      Type.Object(
        {
          /** Class id → item code; the item's name and unit are in `classes` (written once, not per row). */
          classes: Type.Record(Type.String(), Code),
          value: Nullable(Type.Number()),
          reason: Type.Optional(MissingReason),
          flags: Type.Optional(Type.Array(Type.String())),
          raw: Type.String(),
          unit: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TableData = Static<typeof StatsTableSchema>;

/** e-Stat `getMetaInfo`: one table's description and its classification axes (no values). */
export const EstatMetaSchema = Type.Object(
  { ...statsTableInfo, classes: StatsClasses },
  { additionalProperties: false },
);
export type EstatMetaData = Static<typeof EstatMetaSchema>;

/** e-Stat `getStatsList`: the tables (or, with statsNameList=Y, the statistics) a search found, with paging. */
export const StatsListSchema = Type.Object(
  {
    total_number: Nullable(Type.Integer({ minimum: 0 })),
    from_number: Nullable(Type.Integer({ minimum: 0 })),
    to_number: Nullable(Type.Integer({ minimum: 0 })),
    next_key: Nullable(Type.Integer({ minimum: 0 })),
    tables: Type.Array(Type.Object(statsTableInfo, { additionalProperties: false })),
    statistics: Type.Array(
      Type.Object(
        { stat_code: Code, stat_name: NonEmpty, gov_org: Nullable(NonEmpty), gov_org_code: Nullable(Code) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type StatsListData = Static<typeof StatsListSchema>;

/**
 * Tables read from a page (price histories, financial statements): named columns with a type and unit, and one
 * record per row keyed by column key. Values are as displayed: a `千円` column keeps its unit in `columns`.
 */
export const DataTableSchema = Type.Object(
  {
    title: NonEmpty,
    /** What the table is about, e.g. `9434 ソフトバンク(株)`. */
    subject: Nullable(NonEmpty),
    columns: Type.Array(
      Type.Object(
        {
          key: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
          label: NonEmpty,
          type: Type.Union([Type.Literal('date'), Type.Literal('number'), Type.Literal('text')]),
          unit: Nullable(Type.String()),
          /** The date a column stands for, when its heading gives one (決算日 of a fiscal year). */
          as_of: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    rows: Type.Array(Type.Record(Type.String(), Nullable(Type.Union([Type.String(), Type.Number()]))), {
      minItems: 1,
    }),
    /** Paged tables (a price history): absolute URL of the next page of the same table; null on the last page. */
    next_page: Type.Optional(Nullable(HttpUrl)),
    /** Paged tables: this page's number (1-based) when the page says. */
    page: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  },
  { additionalProperties: false },
);
export type DataTableData = Static<typeof DataTableSchema>;

/**
 * `quote`: one listed stock's page (kabutan, minkabu, nikkei). Figures are as the page shows them: the price in
 * decimal yen (`2,724.5円` → 2724.5), 百万円/億円 applied; each metric keeps the text it was read from, and a
 * mark (`－倍`, `---`, `N/A`) is a null value with a reason.
 */
export const QuoteMetricSchema = Type.Object(
  {
    /** Stable name of the figure: `per`, `pbr`, `dividend_yield`, `market_cap`, `volume`, `target_price` … */
    key: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
    /** The page's own heading for it, e.g. `予想PER`. */
    label: NonEmpty,
    value: Nullable(Type.Number()),
    /** The unit of `value` after any 千/百万/億 multiplier: `円`, `株`, `倍`, `%`. */
    unit: Nullable(NonEmpty),
    /** The figure as written, units included: `100,362 百万円`, `－倍`. */
    raw: Type.String(),
    reason: Type.Optional(
      Type.Union([Type.Literal('not_applicable'), Type.Literal('unavailable'), Type.Literal('confidential')]),
    ),
  },
  { additionalProperties: false },
);
export const QuoteSchema = Type.Object(
  {
    code: Type.String({ pattern: '^[0-9][0-9A-Z]{3}$' }),
    name: NonEmpty,
    market: Nullable(NonEmpty),
    price: Nullable(Type.Number({ minimum: 0 })),
    price_reason: Type.Optional(
      Type.Union([Type.Literal('not_applicable'), Type.Literal('unavailable'), Type.Literal('confidential')]),
    ),
    price_text: NonEmpty,
    currency: Type.Literal('JPY'),
    /** When the price was struck, JST: a date-time when the page gives the time, else a date; null without a year. */
    as_of: Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(?:T\\d{2}:\\d{2}:\\d{2}\\+09:00)?$' })),
    as_of_text: Nullable(NonEmpty),
    metrics: Type.Array(QuoteMetricSchema),
    industry: Type.Optional(NonEmpty),
    english_name: Type.Optional(NonEmpty),
    website: Type.Optional(HttpUrl),
    themes: Type.Optional(Type.Array(NonEmpty)),
    shareholder_benefits: Type.Optional(NonEmpty),
  },
  { additionalProperties: false },
);
export type QuoteData = Static<typeof QuoteSchema>;
export type QuoteMetric = Static<typeof QuoteMetricSchema>;

/**
 * 国税庁 法人番号 Web-API (`record` for `/num`, `records` for `/diff` and `/name`): the answer's header line and its
 * corporations, codes kept beside their published meaning (法人番号システム Web-API 仕様書, リソース定義書).
 */
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
export const CorporationSchema = Type.Object(
  {
    sequence_number: Type.Integer({ minimum: 1 }),
    /** 13 digits, check digit verified. */
    corporate_number: Type.String({ pattern: '^[1-9]\\d{12}$' }),
    /** 処理区分 code (`01` 新規, `12` 国内所在地の変更, `21` 登記記録の閉鎖等 …) and its name. */
    process: Type.String({ pattern: '^\\d{2}$' }),
    process_name: Nullable(NonEmpty),
    /** 訂正区分 1: this row corrects an earlier one. Null, like name and kind, only on a `99` 削除 row. */
    correction: Nullable(Type.Boolean()),
    /** 最新履歴 1: the corporation's current state (0: a past state, in history answers). */
    latest: Nullable(Type.Boolean()),
    name: Nullable(NonEmpty),
    furigana: Nullable(NonEmpty),
    en_name: Nullable(NonEmpty),
    /** 法人種別 code (`301` 株式会社 …) and its name; the name is null for a code outside the published list. */
    kind: Nullable(Type.String({ pattern: '^\\d{3}$' })),
    kind_name: Nullable(NonEmpty),
    prefecture: Nullable(NonEmpty),
    city: Nullable(NonEmpty),
    street: Nullable(NonEmpty),
    /** JIS X 0401 prefecture code (2 digits) and the city code (3 digits) within it. */
    prefecture_code: Nullable(Type.String({ pattern: '^\\d{2}$' })),
    city_code: Nullable(Type.String({ pattern: '^\\d{3}$' })),
    post_code: Nullable(Type.String({ pattern: '^\\d{7}$' })),
    address_outside: Nullable(NonEmpty),
    update_date: IsoDate,
    change_date: Nullable(IsoDate),
    assignment_date: Nullable(IsoDate),
    close_date: Nullable(IsoDate),
    /** 登記記録の閉鎖等の事由 code (`01` 清算の結了等, `11` 合併による解散等 …) and its name. */
    close_cause: Nullable(Type.String({ pattern: '^\\d{2}$' })),
    close_cause_name: Nullable(NonEmpty),
    successor_corporate_number: Nullable(Type.String({ pattern: '^[1-9]\\d{12}$' })),
    /** 変更事由の詳細, as published. */
    change_cause: Nullable(NonEmpty),
    /** 検索対象除外 (v4): true when the corporation asked to be left out of searches. */
    hidden: Nullable(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CorporationData = Static<typeof CorporationSchema>;
export const CorporationRecordsSchema = Type.Object(
  {
    /** 最終更新年月日 of the answer. */
    last_updated: IsoDate,
    /** 総件数: all records the query matched, over every part. */
    total: Type.Integer({ minimum: 0 }),
    /** 分割番号 of 分割数: answers above 2,000 records come in parts. */
    part: Type.Integer({ minimum: 1 }),
    parts: Type.Integer({ minimum: 1 }),
    corporations: Type.Array(CorporationSchema),
  },
  { additionalProperties: false },
);
export type CorporationRecordsData = Static<typeof CorporationRecordsSchema>;

/**
 * `document`: one law from the e-Gov law XML (法令標準XML). Numbers are as the XML writes them (`Article@Num` `2_2` for
 * 第二条の二); texts are `ja-extract` normalized. Supplementary provisions (附則) are kept apart from the main body.
 */
const LawItemSchema = Type.Object(
  {
    /** 1 for an Item (号), 2 for Subitem1 (イ, ロ …), 3 for Subitem2, and so on. */
    level: Type.Integer({ minimum: 1, maximum: 11 }),
    number: Nullable(NonEmpty),
    title: Nullable(NonEmpty),
    text: Type.String(),
  },
  { additionalProperties: false },
);
const LawParagraphSchema = Type.Object(
  {
    number: Nullable(NonEmpty),
    caption: Nullable(NonEmpty),
    text: Type.String(),
    /** Items and their subitems flattened in document order; `level` gives the nesting. */
    items: Type.Array(LawItemSchema),
  },
  { additionalProperties: false },
);
const LawArticleSchema = Type.Object(
  {
    number: NonEmpty,
    title: Nullable(NonEmpty),
    caption: Nullable(NonEmpty),
    /** `Chapter@Num` / `Section@Num` the article sits in, as written; null outside chapters. */
    chapter: Nullable(NonEmpty),
    section: Nullable(NonEmpty),
    paragraphs: Type.Array(LawParagraphSchema),
  },
  { additionalProperties: false },
);
export const DocumentSchema = Type.Object(
  {
    title: NonEmpty,
    /** LawNum as written: `平成五年法律第八十八号`. */
    law_number: NonEmpty,
    law_id: Nullable(NonEmpty),
    law_revision_id: Nullable(NonEmpty),
    /** `Law@LawType` as written: Act, CabinetOrder, MinisterialOrdinance … */
    law_type: Nullable(NonEmpty),
    /** `Law@Era` and `Law@Year` as written (`Heisei`, `05`). */
    era: Nullable(NonEmpty),
    year: Nullable(NonEmpty),
    promulgation_date: Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    chapters: Type.Array(
      Type.Object(
        {
          number: NonEmpty,
          title: NonEmpty,
          sections: Type.Array(Type.Object({ number: NonEmpty, title: NonEmpty }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    articles: Type.Array(LawArticleSchema),
    /** Paragraphs of a main provision written without articles (short 政令 and 省令); usually empty. */
    paragraphs: Type.Array(LawParagraphSchema),
    supplementary_provisions: Type.Array(
      Type.Object(
        {
          /** `SupplProvision@AmendLawNum`: the amending law; null for the original 附則. */
          amend_law_number: Nullable(NonEmpty),
          label: Nullable(NonEmpty),
          articles: Type.Array(LawArticleSchema),
          paragraphs: Type.Array(LawParagraphSchema),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type DocumentData = Static<typeof DocumentSchema>;

/** `table`: either shape; a result must match one of them entirely. */
export const TableSchema = Type.Union([StatsTableSchema, DataTableSchema]);

export { isPageType, pageTypes, type PageType } from './page-type.js';

/** Output schemas by page type; a page type without one cannot be served. */
export const pageTypeSchemas: Readonly<Record<PageType, TSchema>> = {
  item: ItemSchema,
  search: ListSchema,
  ranking: ListSchema,
  offers: ListSchema,
  forecast: ForecastSchema,
  forecast_overview: ForecastOverviewSchema,
  areas: AreasSchema,
  table: TableSchema,
  meta: EstatMetaSchema,
  list: StatsListSchema,
  history: DataTableSchema,
  quote: QuoteSchema,
  record: CorporationRecordsSchema,
  records: CorporationRecordsSchema,
  document: DocumentSchema,
};

/**
 * Throws KumoError('extraction_failed') unless `extraction.data` is a complete, valid result for the page type;
 * the detail names the missing or invalid fields (never values, which may be page content).
 */
export function validateExtraction(pageType: string, extraction: Extraction): void {
  const schema = isPageType(pageType) ? pageTypeSchemas[pageType] : undefined;
  if (!schema) throw new KumoError('extraction_failed', `no output schema for page type ${pageType}`);
  if (validatorOf(pageType, schema).Check(extraction.data)) {
    const broken = crossFieldProblems(extraction.data);
    if (broken.length === 0) return;
    throw new KumoError('extraction_failed', `${pageType}: ${broken.join(', ')}`, {
      body: { fields: broken.map((p) => p.split(' ')[0]) },
    });
  }
  const problems = new Set<string>();
  for (const error of Value.Errors(schema, extraction.data)) {
    if (problems.size >= 10) break;
    const params = error.params as { requiredProperties?: string[]; additionalProperties?: string[] };
    const at = error.instancePath || '/';
    if (error.keyword === 'required' && params.requiredProperties) {
      for (const name of params.requiredProperties) problems.add(`${joinPath(at, name)} missing`);
    } else if (error.keyword === 'additionalProperties' && params.additionalProperties) {
      for (const name of params.additionalProperties) problems.add(`${joinPath(at, name)} not allowed`);
    } else if (error.keyword !== 'anyOf' || !hasDeeper(problems, at)) {
      problems.add(`${at} invalid (${error.keyword})`);
    }
  }
  throw new KumoError('extraction_failed', `${pageType}: ${[...problems].join(', ') || 'invalid result'}`, {
    body: { fields: [...problems].map((p) => p.split(' ')[0]) },
  });
}

// Compiled once per page type: the interpreted check took 5.6 s on a 50,000-row table, the compiled one 0.1 s.
const validators = new Map<string, Validator>();
function validatorOf(pageType: string, schema: TSchema): Validator {
  let validator = validators.get(pageType);
  if (!validator) validators.set(pageType, (validator = Compile(schema)));
  return validator;
}

/**
 * Rules a schema cannot say: a listed price carries its currency and tax basis (a bare number is not a price), and a
 * range runs upwards.
 */
function crossFieldProblems(data: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const checkRange = (value: unknown, at: string) => {
    const range = value as { min: number; max: number } | undefined;
    if (range && range.min > range.max) problems.push(`${at}/price_range invalid (min above max)`);
  };
  checkRange(data.price_range, '');
  checkPriced(data, '');
  if (Array.isArray(data.items)) {
    data.items.forEach((raw: Record<string, unknown>, i) => {
      checkRange(raw.price_range, `/items/${i}`);
      checkPriced(raw, `/items/${i}`);
      const priced = raw.price !== undefined;
      if (priced !== (raw.currency !== undefined) || priced !== (raw.price_tax !== undefined))
        problems.push(`/items/${i}/price invalid (price, currency and price_tax go together)`);
    });
  }
  if (Array.isArray(data.items) && typeof data.total === 'number' && data.total < data.items.length)
    problems.push('/total invalid (fewer than the items listed)');
  return problems.slice(0, 10);

  /** A 税抜 amount above a tax-included price, or a fee on free shipping, says two sources were mixed up. */
  function checkPriced(raw: Record<string, unknown>, at: string) {
    const { price, price_tax, price_excluding_tax, shipping, shipping_fee, points_rate } = raw;
    if (typeof price === 'number' && typeof price_excluding_tax === 'number' && price_tax === 'included')
      if (price_excluding_tax > price) problems.push(`${at}/price_excluding_tax invalid (above the 税込 price)`);
    if ((shipping === 'free' || shipping === 'included') && typeof shipping_fee === 'number' && shipping_fee > 0)
      problems.push(`${at}/shipping_fee invalid (a fee on free or included shipping)`);
    if (typeof points_rate === 'number' && points_rate > 100) problems.push(`${at}/points_rate invalid (above 100%)`);
  }
}

function joinPath(at: string, name: string): string {
  return at === '/' ? `/${name}` : `${at}/${name}`;
}

function hasDeeper(problems: Set<string>, at: string): boolean {
  return [...problems].some((p) => p.startsWith(`${at}/`) || p.startsWith(`${at} `));
}
