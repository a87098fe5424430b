// Example values of /openapi.json: one per named schema, request body, success response and parameter (decision 0028).
// Written by hand, realistic (Japanese titles, whole-yen prices); src/http/openapi.test.ts validates each against its
// schema, so an example that drifts from the API fails a test instead of misleading a reader.

const requestId = 'req_01JDQ8Z6K9V3T7M2N4P5R8S1W0';
const at = '2026-11-28T03:41:12.208Z';

/** The data of one page type's answer, by the component that names its shape. */
/** One e-Stat table as its meta page and the list both describe it. */
const estatTable = {
  table_id: '0003448237',
  title: '男女別人口－総人口，日本人人口(2020年10月～2021年3月)',
  title_no: '001',
  stat_name: '人口推計',
  stat_code: '00200524',
  gov_org: '総務省',
  statistics_name: '人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月',
  cycle: '月次',
  survey_date: '202010-202103',
  survey_period: { start: '2020-10', end: '2021-03' },
  open_date: '2021-03-22',
  updated_date: '2021-03-22',
  small_area: 0,
  collect_area: '該当なし',
  main_category: { code: '02', name: '人口・世帯' },
  sub_category: { code: '01', name: '人口' },
  overall_total_number: 24,
};

export const dataExamples: Record<string, unknown> = {
  ItemData: {
    title: 'ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック',
    price: 12800,
    currency: 'JPY',
    price_tax: 'included',
    price_excluding_tax: 11636,
    points: 128,
    points_rate: 1,
    shipping: 'free',
    availability: 'in_stock',
    availability_text: '在庫あり',
    brand: 'ヤマハ',
    shop: 'イケベ楽器店',
    jan: '4957812646284',
    sku: '751203',
    images: ['https://www.ikebe-gakki.com/images/item/751203_1.jpg'],
    canonical_url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
  },
  ListData: {
    title: 'ヤマハ キーボード',
    items: [
      {
        title: 'ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック',
        url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
        price: 12800,
        currency: 'JPY',
        price_tax: 'included',
        availability: 'in_stock',
      },
      {
        title: 'ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵',
        url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810',
        price: 24200,
        currency: 'JPY',
        price_tax: 'included',
        points: 242,
        availability: 'out_of_stock',
        availability_text: 'お取り寄せ',
      },
    ],
    next_page: 'https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2',
    total: 245,
    page: 1,
  },
  ForecastData: {
    publishing_office: '気象庁',
    report_datetime: '2026-11-28T11:00:00+09:00',
    short_term: {
      report_datetime: '2026-11-28T11:00:00+09:00',
      areas: [
        {
          code: '130010',
          name: '東京地方',
          weathers: [
            {
              time: '2026-11-28T11:00:00+09:00',
              weather_code: '101',
              weather: '晴れ　時々　くもり',
              wind: '北の風',
              wave: '０．５メートル',
            },
          ],
          pops: [{ time: '2026-11-28T12:00:00+09:00', pop: 10 }],
        },
      ],
      temperature_points: [{ code: '44132', name: '東京', temps: [{ time: '2026-11-28T09:00:00+09:00', temp: 15 }] }],
    },
    weekly: {
      report_datetime: '2026-11-28T11:00:00+09:00',
      areas: [
        {
          code: '130010',
          name: '東京地方',
          days: [{ time: '2026-11-29T00:00:00+09:00', weather_code: '201', pop: 20, reliability: 'A' }],
        },
      ],
      temperature_points: [
        {
          code: '44132',
          name: '東京',
          days: [
            {
              time: '2026-11-29T00:00:00+09:00',
              min: 8,
              min_upper: 9,
              min_lower: 6,
              max: 16,
              max_upper: 18,
              max_lower: 14,
            },
          ],
        },
      ],
      temp_average: [{ code: '44132', name: '東京', min: 7.4, max: 15.8 }],
      precip_average: [{ code: '44132', name: '東京', min: 1, max: 12 }],
    },
  },
  ForecastOverviewData: {
    publishing_office: '気象庁',
    report_datetime: '2026-11-28T10:37:00+09:00',
    target_area: '東京都',
    headline: null,
    text: '日本付近は高気圧に覆われています。東京地方は、晴れや曇りとなっています。',
  },
  AreasData: {
    centers: [
      { code: '010300', name: '関東甲信地方', en_name: 'Kanto Koshin', office_name: '気象庁', children: ['130000'] },
    ],
    offices: [
      {
        code: '130000',
        name: '東京都',
        en_name: 'Tokyo',
        office_name: '気象庁',
        parent: '010300',
        children: ['130010'],
      },
    ],
    class10s: [{ code: '130010', name: '東京地方', en_name: 'Tokyo', parent: '130000', children: ['131010'] }],
    class15s: [{ code: '131010', name: '２３区西部', en_name: 'Western 23 Wards', parent: '130010', children: [] }],
    class20s: [{ code: '1310400', name: '新宿区', en_name: 'Shinjuku City', kana: 'しんじゅくく', parent: '131010' }],
  },
  StatsTableData: {
    title: '男女別人口－総人口，日本人人口(2020年10月～2021年3月)',
    table_id: '0003448237',
    title_no: '001',
    stat_name: '人口推計',
    stat_code: '00200524',
    gov_org: '総務省',
    statistics_name: '人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月',
    survey_date: '202010-202103',
    survey_period: { start: '2020-10', end: '2021-03' },
    open_date: '2021-03-22',
    updated_date: '2021-03-22',
    total_number: 2,
    from_number: 1,
    to_number: 2,
    next_key: null,
    classes: [
      {
        id: 'cat01',
        name: '男女別',
        items: [{ code: '000', name: '男女計', level: 1, parent_code: null, unit: '千人' }],
      },
      {
        id: 'time',
        name: '時間軸（月）',
        items: [
          { code: '2020001010', name: '2020年10月', level: 1, parent_code: null, unit: null },
          { code: '2020001111', name: '2020年11月', level: 1, parent_code: null, unit: null },
        ],
      },
    ],
    notes: [{ mark: '…', meaning: '数値が得られないもの' }],
    rows: [
      { classes: { cat01: '000', time: '2020001010' }, value: 126146, raw: '126146', unit: '千人' },
      { classes: { cat01: '000', time: '2020001111' }, value: null, reason: 'unavailable', raw: '…', unit: '千人' },
    ],
  },
  DataTableData: {
    title: '7203 トヨタ自動車 時系列株価',
    subject: '7203 トヨタ自動車(株)',
    columns: [
      { key: 'date', label: '日付', type: 'date', unit: null },
      { key: 'open', label: '始値', type: 'number', unit: '円' },
      { key: 'close', label: '終値', type: 'number', unit: '円' },
      { key: 'volume', label: '売買高', type: 'number', unit: '株' },
    ],
    rows: [
      { date: '2026-11-27', open: 2862, close: 2891.5, volume: 21884300 },
      { date: '2026-11-26', open: 2840, close: 2855, volume: 19702100 },
    ],
    next_page: 'https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2',
    page: 1,
  },
  EstatMetaData: {
    ...estatTable,
    classes: [
      {
        id: 'cat01',
        name: '男女別',
        items: [
          { code: '000', name: '男女計', level: 1, parent_code: null, unit: '千人' },
          { code: '001', name: '男', level: 1, parent_code: null, unit: '千人' },
        ],
      },
    ],
  },
  StatsListData: {
    total_number: 1,
    from_number: 1,
    to_number: 1,
    next_key: null,
    tables: [estatTable],
    statistics: [{ stat_code: '00200524', stat_name: '人口推計', gov_org: '総務省', gov_org_code: '00200' }],
  },
  QuoteData: {
    code: '7203',
    name: 'トヨタ自動車',
    market: '東証Ｐ',
    price: 2891.5,
    price_text: '2,891.5円',
    currency: 'JPY',
    as_of: '2026-11-27T15:30:00+09:00',
    as_of_text: '11/27 15:30',
    metrics: [
      { key: 'per', label: 'PER', value: 9.8, unit: '倍', raw: '9.8倍' },
      { key: 'dividend_yield', label: '利回り', value: 3.11, unit: '%', raw: '3.11％' },
      { key: 'market_cap', label: '時価総額', value: 47140000000000, unit: '円', raw: '47兆1,400億円' },
    ],
    industry: '輸送用機器',
  },
  CorporationRecordsData: {
    last_updated: '2026-11-27',
    total: 1,
    part: 1,
    parts: 1,
    corporations: [
      {
        sequence_number: 1,
        corporate_number: '1180301018771',
        process: '01',
        process_name: '新規',
        correction: false,
        latest: true,
        name: 'トヨタ自動車株式会社',
        furigana: 'トヨタジドウシャ',
        en_name: 'TOYOTA MOTOR CORPORATION',
        kind: '301',
        kind_name: '株式会社',
        prefecture: '愛知県',
        city: '豊田市',
        street: 'トヨタ町１番地',
        prefecture_code: '23',
        city_code: '211',
        post_code: '4718571',
        address_outside: null,
        update_date: '2024-04-01',
        change_date: '2015-10-05',
        assignment_date: '2015-10-05',
        close_date: null,
        close_cause: null,
        close_cause_name: null,
        successor_corporate_number: null,
        change_cause: null,
        hidden: false,
      },
    ],
  },
  DocumentData: {
    title: '行政手続法',
    law_number: '平成五年法律第八十八号',
    law_id: '405AC0000000088',
    law_revision_id: null,
    law_type: 'Act',
    era: 'Heisei',
    year: '05',
    promulgation_date: '1993-11-12',
    chapters: [{ number: '1', title: '第一章　総則', sections: [] }],
    articles: [
      {
        number: '1',
        title: '第一条',
        caption: '（目的等）',
        chapter: '1',
        section: null,
        paragraphs: [
          {
            number: '1',
            caption: null,
            text: 'この法律は、処分、行政指導及び届出に関する手続並びに命令等を定める手続に関し、共通する事項を定めることによって、行政運営における公正の確保と透明性の向上を図り、もって国民の権利利益の保護に資することを目的とする。',
            items: [],
          },
        ],
      },
    ],
    paragraphs: [],
    supplementary_provisions: [{ amend_law_number: null, label: '附　則', articles: [], paragraphs: [] }],
  },
};

/** The page answered by each page type's example: resolved site, URL and extractor. */
export const pageTypeExampleSources: Record<string, { site: string; url: string; route: string }> = {
  item: { site: 'ikebe_gakki', url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203', route: 'http' },
  search: {
    site: 'ikebe_gakki',
    url: 'https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F',
    route: 'http',
  },
  ranking: {
    site: 'rakuten_webservice',
    url: 'https://app.rakuten.co.jp/services/api/IchibaItem/Ranking/20220601?genreId=112493',
    route: 'api',
  },
  offers: { site: 'surugaya', url: 'https://www.suruga-ya.jp/product/other/128005541', route: 'http' },
  forecast: {
    site: 'jma_forecast',
    url: 'https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json',
    route: 'api',
  },
  forecast_overview: {
    site: 'jma_forecast',
    url: 'https://www.jma.go.jp/bosai/forecast/data/overview_forecast/130000.json',
    route: 'api',
  },
  areas: { site: 'jma_forecast', url: 'https://www.jma.go.jp/bosai/common/const/area.json', route: 'api' },
  table: {
    site: 'estat_api',
    url: 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237',
    route: 'api',
  },
  meta: {
    site: 'estat_api',
    url: 'https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?statsDataId=0003448237',
    route: 'api',
  },
  list: {
    site: 'estat_api',
    url: 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsList?statsCode=00200524',
    route: 'api',
  },
  history: { site: 'kabutan', url: 'https://kabutan.jp/stock/kabuka?code=7203', route: 'http' },
  quote: { site: 'kabutan', url: 'https://kabutan.jp/stock/?code=7203', route: 'http' },
  record: {
    site: 'houjin_bangou',
    url: 'https://api.houjin-bangou.nta.go.jp/4/num?number=1180301018771&type=12',
    route: 'api',
  },
  records: {
    site: 'houjin_bangou',
    url: 'https://api.houjin-bangou.nta.go.jp/4/name?name=%E3%83%88%E3%83%A8%E3%82%BF&type=12',
    route: 'api',
  },
  document: { site: 'egov_laws', url: 'https://laws.e-gov.go.jp/api/1/lawdata/405AC0000000088', route: 'api' },
};

/** A scrape answer for a page type, with the given data (the variant's example). */
export function scrapeAnswerExample(pageType: string, data: unknown): Record<string, unknown> {
  const source = pageTypeExampleSources[pageType];
  if (!source) throw new Error(`no example source for page type ${pageType}`);
  return {
    request_id: requestId,
    resolved_site: source.site,
    page_type: pageType,
    fetch_summary: { ...fetchSummary, route: source.route, final_url: source.url },
    cost_units: 1,
    latency_ms: 431,
    extractor: { ...extractor, id: `${source.site}/${pageType}` },
    data,
    cache: cacheState,
    warnings: [],
  };
}

const fetchSummary = {
  status: 'completed',
  attempts: 1,
  route: 'http',
  http_status: 200,
  final_url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
  charset: 'utf-8',
  bytes: 366969,
  elapsed_ms: 412,
};
const extractor = {
  id: 'ikebe_gakki/item',
  version: 3,
  coverage: 'stable',
  provenance: { title: 'html', price: 'html', points: 'html', brand: 'json_ld' },
};
const cacheState = { state: 'miss', fetched_at: at, age_s: 0 };

/** Components other than the page-type data and the scrape answers (which openapi.ts derives from them). */
export const componentExamples: Record<string, unknown> = {
  Problem: {
    type: 'https://kumo.dev/errors/credits_exhausted',
    title: 'Credits exhausted',
    status: 429,
    code: 'credits_exhausted',
    detail: "this month's 500 credits are used; they reset on 2026-12-01 (Asia/Tokyo)",
    request_id: requestId,
  },
  FetchSummary: fetchSummary,
  Extractor: extractor,
  CacheState: cacheState,
  StoredArtifact: { id: 'art_01JDQ8Z7B3C5D7F9G1H3J5K7M9', expires_at: '2026-12-05T03:41:12.208Z' },
};

const batch = {
  id: 'bat_01JDQ9A2B4C6D8E0F2G4H6J8K0',
  status: 'running',
  sealed: true,
  created_at: at,
  finished_at: null,
  results_expire_at: '2026-11-29T03:41:12.208Z',
  counts: {
    total: 3,
    queued: 1,
    running: 1,
    ready: 1,
    delivered: 0,
    failed: 0,
    not_found: 0,
    skipped: 0,
    cancelled: 0,
    expired: 0,
  },
  credits: { charged: 0, held: 1, max: 100 },
  estimate: { cost_units_max: 3, eta_s: 6 },
  rejected: [],
  webhook: {
    endpoint_id: 'whe_01JDQ5N7P9R1S3T5V7W9X1Y3Z5',
    events: ['item.succeeded', 'item.failed', 'batch.completed'],
    payload: 'full',
  },
  results: { retain_hours: 24 },
  links: {
    self: '/v1/batches/bat_01JDQ9A2B4C6D8E0F2G4H6J8K0',
    items: '/v1/batches/bat_01JDQ9A2B4C6D8E0F2G4H6J8K0/items',
    events: '/v1/events?batch_id=bat_01JDQ9A2B4C6D8E0F2G4H6J8K0',
  },
};

/** A batch item's result: POST /v1/scrape's 200 without its request_id. */
const itemResult = {
  resolved_site: 'ikebe_gakki',
  page_type: 'item',
  fetch_summary: fetchSummary,
  cost_units: 1,
  latency_ms: 431,
  extractor,
  data: dataExamples.ItemData,
  cache: { state: 'bypass', fetched_at: at, age_s: 0 },
  warnings: [],
};

const endpoint = {
  id: 'whe_01JDQ5N7P9R1S3T5V7W9X1Y3Z5',
  url: 'https://hooks.example.co.jp/kumo',
  events: ['item.succeeded', 'item.failed', 'batch.completed'],
  secret_last4: 'Q2x9',
  created_at: at,
  disabled_at: null,
};

const rules = [
  { id: 'price-drop', when: { field: 'price', change_pct_lte: -5 }, mode: 'change' },
  { id: 'back-in-stock', when: { field: 'availability', to: ['in_stock'] }, mode: 'enter' },
];

const monitor = {
  id: 'mon_01JDQB3D5F7H9K1M3P5R7T9V1X',
  name: 'ヤマハ キーボード 価格',
  status: 'active',
  paused_reason: null,
  schedule: {
    every_minutes: null,
    cron: '0 9 * * *',
    timezone: 'Asia/Tokyo',
    calendar: 'jp_business_days',
    jitter_s: 120,
    next_run_at: '2026-11-30T00:02:00.000Z',
  },
  watch: ['price', 'points', 'availability'],
  rules,
  noise: { price_abs_yen: 0, confirm_checks: 1, cooldown_minutes: 60, max_alerts_per_day: 10 },
  failures: { alert_after: 3 },
  notify: {
    webhook: null,
    language: 'ja',
    channels: [{ kind: 'slack', masked: { webhook_url: 'https://hooks.slack.com/services/…a1B2' } }],
  },
  history: { retain_days: 90 },
  max_credits_per_month: 200,
  credits: { period: '2026-11', used: 12 },
  targets: [
    {
      id: 'tgt_01JDQB3D5F7H9K1M3P5R7T9V2A',
      url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
      ref: 'PSS-A50',
      site: 'ikebe_gakki',
      page_type: 'item',
      removed: false,
      last: { price: 12800, points: 128, availability: 'in_stock' },
      last_check: { at: '2026-11-28T00:01:47.000Z', state: 'completed', error_code: null },
    },
  ],
  created_at: '2026-11-01T02:00:00.000Z',
  updated_at: '2026-11-20T05:30:00.000Z',
};

const check = {
  id: 'chk_01JDQC4E6G8J0K2M4N6Q8S0T2V',
  target_id: 'tgt_01JDQB3D5F7H9K1M3P5R7T9V2A',
  state: 'completed',
  reason: null,
  scheduled_at: '2026-11-28T00:01:45.000Z',
  started_at: '2026-11-28T00:01:46.000Z',
  finished_at: '2026-11-28T00:01:47.000Z',
  attempts: 1,
  request_id: requestId,
  cost_units: 1,
  changes: [{ field: 'price', before: 13800, after: 12800, delta: -1000, delta_pct: -7.25 }],
  rules_hit: ['price-drop'],
  skipped_rules: [],
  error: null,
};

/** Per operationId: its JSON request body and its success answers, by status. */
export const operationExamples: Record<string, { body?: unknown; responses?: Record<string, unknown> }> = {
  scrape: {
    body: {
      url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
      params: { mode: 'html_json', work_type: 'auto', max_age_s: 3600 },
    },
  },
  getUsage: {
    responses: {
      200: {
        request_id: requestId,
        account_id: 'acc_01JD0M2N4P6Q8R0S2T4V6W8X0Y',
        plan: 'starter',
        period: '2026-11',
        resets_at: '2026-11-30T15:00:00.000Z',
        credits: {
          allowance: 5000,
          overage_cap: 0,
          limit: 5000,
          used: 1288,
          reserved: 2,
          remaining: 3710,
          overage_used: 0,
        },
        key: {
          key_id: 'key_01JD0M3P5R7T9V1X3Z5B7D9F1H',
          credit_limit: null,
          used: 1288,
          reserved: 2,
          remaining: null,
          concurrency_limit: 4,
          concurrency_in_use: 1,
        },
        concurrency: { limit: 4, in_use: 1 },
      },
    },
  },
  getRequest: {
    responses: {
      200: {
        request_id: requestId,
        key_id: 'key_01JD0M3P5R7T9V1X3Z5B7D9F1H',
        site: 'ikebe_gakki',
        page_type: 'item',
        url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
        status: 'completed',
        error_code: null,
        attempts: 1,
        route: 'http',
        cost_units: 1,
        latency_ms: 431,
        artifact_id: null,
        cache: 'miss',
        created_at: at,
      },
    },
  },
  deleteCache: {
    responses: { 200: { request_id: requestId, deleted: 3 } },
  },
  listSites: {
    responses: {
      200: {
        request_id: requestId,
        sites: [
          {
            id: 'ikebe_gakki',
            name: 'イケベ楽器店',
            kind: 'commerce',
            hosts: ['www.ikebe-gakki.com'],
            route: 'http',
            cost: 1,
            page_types: [
              {
                page_type: 'item',
                url_pattern: '/c/c-/<category path>/<item number>',
                coverage: 'stable',
                declared: 'stable',
                earned: 'stable',
                extractor: 'ikebe_gakki/item',
                version: 3,
                verified_by:
                  'recorded page: ikebe-gakki/product.html (2023-02); modelled variants for fallbacks and failure',
                review: null,
                cache_limit_s: 86400,
                cache_limit_reason:
                  'Prices and stock move during the day (タイムセール, 在庫切れ); kept at most the 24 h cap of DESIGN §5',
                fixtures: { real: 3, modelled: 5 },
                routes: [
                  {
                    route: 'http',
                    default: true,
                    cost: 1,
                    coverage: 'stable',
                    extractor: 'ikebe_gakki/item',
                    version: 3,
                    verified_by:
                      'recorded page: ikebe-gakki/product.html (2023-02); modelled variants for fallbacks and failure',
                  },
                ],
              },
            ],
          },
        ],
      },
    },
  },
  getArtifact: {
    responses: {
      200: {
        id: 'art_01JDQ8Z7B3C5D7F9G1H3J5K7M9',
        request_id: requestId,
        url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
        created_at: at,
        expires_at: '2026-12-05T03:41:12.208Z',
        data: dataExamples.ItemData,
        html: null,
      },
    },
  },
  createBatch: {
    body: {
      items: [
        { url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203', ref: 'PSS-A50 ブラック' },
        { url: 'https://kakaku.com/item/K0001234567/', ref: 'PSR-E383' },
        { url: 'https://www.yodobashi.com/product/100000001008123456/' },
      ],
      webhook: { endpoint_id: 'whe_01JDQ5N7P9R1S3T5V7W9X1Y3Z5', payload: 'full' },
      max_credits: 100,
    },
    responses: {
      202: {
        request_id: requestId,
        batch: {
          ...batch,
          status: 'queued',
          counts: { ...batch.counts, queued: 3, running: 0, ready: 0 },
          credits: { ...batch.credits, held: 0 },
        },
      },
    },
  },
  listBatches: { responses: { 200: { request_id: requestId, batches: [batch] } } },
  appendBatchItems: {
    body: { items: [{ url: 'https://www.biccamera.com/bc/item/12345678/', ref: 'P-125' }], seal: true },
    responses: { 202: { request_id: requestId, batch } },
  },
  listBatchItems: {
    responses: {
      200: {
        request_id: requestId,
        items: [
          {
            id: 'itm_01JDQ9A3C5E7G9J1K3M5P7R9T1',
            index: 0,
            ref: 'PSS-A50 ブラック',
            url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
            state: 'delivered',
            attempts: 1,
            request_id: requestId,
            cost_units: 1,
            finished_at: at,
            result: itemResult,
          },
          {
            id: 'itm_01JDQ9A3C5E7G9J1K3M5P7R9T2',
            index: 1,
            ref: 'PSR-E383',
            url: 'https://kakaku.com/item/K0001234567/',
            state: 'failed',
            attempts: 3,
            request_id: 'req_01JDQ8Z6K9V3T7M2N4P5R8S1W5',
            cost_units: 0,
            finished_at: at,
            error: { code: 'fetch_timeout', status: 504, retryable: true },
          },
        ],
        next_cursor: null,
      },
    },
  },
  getBatch: { responses: { 200: { request_id: requestId, batch } } },
  cancelBatch: {
    responses: { 200: { request_id: requestId, batch: { ...batch, status: 'cancelling' }, cancelled: 1 } },
  },
  listEvents: {
    responses: {
      200: {
        request_id: requestId,
        events: [
          {
            id: 'evt_01JDQ9B4D6F8H0K2M4P6R8T0V2',
            type: 'item.succeeded',
            timestamp: '2026-11-28T12:41:14.000+09:00',
            data: { batch_id: batch.id, item_id: 'itm_01JDQ9A3C5E7G9J1K3M5P7R9T1', sequence: 1 },
          },
        ],
        next_after: 'evt_01JDQ9B4D6F8H0K2M4P6R8T0V2',
      },
    },
  },
  createWebhookEndpoint: {
    body: { url: 'https://hooks.example.co.jp/kumo', events: ['item.succeeded', 'item.failed', 'batch.completed'] },
    responses: {
      201: { request_id: requestId, endpoint: { ...endpoint, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwQ2x9' } },
    },
  },
  listWebhookEndpoints: { responses: { 200: { request_id: requestId, endpoints: [endpoint] } } },
  getWebhookEndpoint: { responses: { 200: { request_id: requestId, endpoint } } },
  rotateWebhookEndpointSecret: {
    responses: {
      200: {
        request_id: requestId,
        endpoint: { ...endpoint, secret_last4: 'v7Rk', secret: 'whsec_3b8TzQk1nW4eYp0Hc6LdS2mJ9aFgXuV7Rk' },
      },
    },
  },
  createMonitor: {
    body: {
      name: 'ヤマハ キーボード 価格',
      targets: [{ url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203', ref: 'PSS-A50' }],
      schedule: { cron: '0 9 * * *', timezone: 'Asia/Tokyo', calendar: 'jp_business_days' },
      watch: ['price', 'points', 'availability'],
      rules,
      notify: { slack: { webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXXa1B2' }, language: 'ja' },
      max_credits_per_month: 200,
    },
    responses: {
      201: {
        request_id: requestId,
        monitor: {
          ...monitor,
          estimate: {
            checks_per_month: 20,
            credits_per_month: 20,
            within_plan: true,
            host_load: [{ host: 'www.ikebe-gakki.com', checks_per_day: 1, share_per_day: null }],
          },
        },
      },
    },
  },
  listMonitors: { responses: { 200: { request_id: requestId, monitors: [monitor], next_cursor: null } } },
  getMonitor: { responses: { 200: { request_id: requestId, monitor } } },
  updateMonitor: {
    body: { status: 'paused' },
    responses: {
      200: {
        request_id: requestId,
        monitor: {
          ...monitor,
          status: 'paused',
          paused_reason: 'caller',
          schedule: { ...monitor.schedule, next_run_at: null },
        },
      },
    },
  },
  deleteMonitor: { responses: { 200: { request_id: requestId, deleted: true } } },
  runMonitor: {
    responses: {
      202: {
        request_id: requestId,
        checks: [
          {
            ...check,
            state: 'queued',
            started_at: null,
            finished_at: null,
            attempts: 0,
            request_id: null,
            cost_units: 0,
            changes: [],
            rules_hit: [],
          },
        ],
      },
    },
  },
  listMonitorChecks: { responses: { 200: { request_id: requestId, checks: [check], next_cursor: null } } },
  getMonitorHistory: {
    responses: {
      200: {
        request_id: requestId,
        target_id: 'tgt_01JDQB3D5F7H9K1M3P5R7T9V2A',
        from: '2026-10-30',
        to: '2026-11-28',
        retain_days: 90,
        points: [
          { t: '2026-11-27T00:01:50.000Z', price: 13800, points: 138, availability: 'in_stock' },
          { t: '2026-11-28T00:01:47.000Z', price: 12800, points: 128, availability: 'in_stock' },
        ],
        stats: {
          price: {
            min: 12800,
            max: 13800,
            lowest_at: '2026-11-28T00:01:47.000Z',
            last_change_at: '2026-11-28T00:01:47.000Z',
          },
        },
      },
    },
  },
};

/** Path, query and header parameters, by lower-case name; `id` by the path it identifies. */
const webhookItem = {
  batch_id: batch.id,
  item_id: 'itm_01JDQ9A3C5E7G9J1K3M5P7R9T1',
  index: 0,
  ref: 'PSS-A50 ブラック',
  sequence: 3,
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
  request_id: requestId,
  cost_units: 1,
  attempts: 1,
};
const webhookTarget = {
  monitor_id: monitor.id,
  monitor_name: monitor.name,
  target_id: 'tgt_01JDQB3D5F7H9K1M3P5R7T9V1Y',
  ref: 'PSS-A50',
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
  site: 'ikebe_gakki',
};

/** The bodies of webhook deliveries (webhook-schemas.ts), as a receiver gets them. */
export const webhookExamples: Record<string, unknown> = {
  BatchItemSucceededEvent: {
    type: 'item.succeeded',
    timestamp: '2026-11-28T12:41:14.120+09:00',
    data: { ...webhookItem, result: itemResult },
  },
  BatchItemEndedEvent: {
    type: 'item.failed',
    timestamp: '2026-11-28T12:41:19.004+09:00',
    data: {
      ...webhookItem,
      item_id: 'itm_01JDQ9A3C5E7G9J1K3M5P7R9T2',
      index: 1,
      ref: 'PSR-E383',
      sequence: 4,
      url: 'https://kakaku.com/item/K0001234567/',
      cost_units: 0,
      attempts: 3,
      error: { code: 'fetch_timeout', status: 504, retryable: true },
    },
  },
  BatchEndedEvent: {
    type: 'batch.completed',
    timestamp: '2026-11-28T12:41:20.310+09:00',
    data: {
      batch_id: batch.id,
      status: 'completed',
      sequence: 6,
      counts: { ...batch.counts, queued: 0, running: 0, ready: 0, delivered: 2, failed: 1 },
      credits: { charged: 2, held: 0, max: 100 },
    },
  },
  MonitorAlertEvent: {
    type: 'monitor.alert',
    timestamp: '2026-11-28T03:41:12.208Z',
    data: {
      ...webhookTarget,
      check_id: 'chk_01JDQB5F7H9K1M3P5R7T9V1X3Z',
      observed_at: '2026-11-28T03:41:11.902Z',
      previous_at: '2026-11-28T02:41:10.511Z',
      rules_hit: ['price-drop'],
      changes: [{ field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 }],
      current: { price: 11800, price_tax: 'included', points: 118, shipping: 'free', availability: 'in_stock' },
      request_id: requestId,
      cost_units: 1,
    },
  },
  MonitorCheckFailedEvent: {
    type: 'monitor.check.failed',
    timestamp: '2026-11-28T03:41:12.208Z',
    data: {
      ...webhookTarget,
      failures_in_a_row: 3,
      error: { code: 'fetch_failed', status: 502 },
      observed_at: '2026-11-28T03:41:11.902Z',
    },
  },
  MonitorTargetRemovedEvent: {
    type: 'monitor.target.removed',
    timestamp: '2026-11-28T03:41:12.208Z',
    data: { ...webhookTarget, status: 404, observed_at: '2026-11-28T03:41:11.902Z' },
  },
  MonitorPausedEvent: {
    type: 'monitor.paused',
    timestamp: '2026-11-28T03:41:12.208Z',
    data: {
      monitor_id: monitor.id,
      monitor_name: monitor.name,
      reason: 'max_credits_per_month',
      credits_this_month: 300,
      max_credits_per_month: 300,
      at: '2026-11-28T03:41:12.208Z',
    },
  },
};

export const parameterExamples: Record<string, unknown> = {
  'idempotency-key': 'order-sync-2026-11-28-0001',
  limit: '20',
  cursor: 'eyJjIjoiMjAyNi0xMS0yOFQwMzo0MToxMi4yMDhaIn0',
  state: 'failed',
  batch_id: 'bat_01JDQ9A2B4C6D8E0F2G4H6J8K0',
  after: 'evt_01JDQ9B4D6F8H0K2M4P6R8T0V2',
  types: 'item.failed,item.skipped',
  target: 'tgt_01JDQB3D5F7H9K1M3P5R7T9V2A',
  days: '30',
  fields: 'price,points',
  format: 'json',
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203',
  '/v1/requests/': requestId,
  '/v1/artifacts/': 'art_01JDQ8Z7B3C5D7F9G1H3J5K7M9',
  '/v1/batches/': 'bat_01JDQ9A2B4C6D8E0F2G4H6J8K0',
  '/v1/webhook-endpoints/': 'whe_01JDQ5N7P9R1S3T5V7W9X1Y3Z5',
  '/v1/monitors/': 'mon_01JDQB3D5F7H9K1M3P5R7T9V1X',
};
