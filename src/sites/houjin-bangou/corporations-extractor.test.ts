// 法人番号 Web-API: URL routing, the real recordings' figures, and rows the golden fixtures do not cover.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import type { CsvPage } from '../../normalize/page.js';
import { produce } from '../../scrape/produce.js';
import { redactUrl } from '../redact-url.js';
import iconv from 'iconv-lite';
import { corpusAvailable, corpusPath } from '../corpus.js';
import {
  CLOSE_CAUSE_NAMES,
  houjinRecordExtractor,
  houjinRecordsExtractor,
  KIND_NAMES,
} from './corporations-extractor.js';
import { houjinBangou } from './site.js';

const haveCorpus = corpusAvailable();
if (!haveCorpus) console.warn(`houjin_bangou corpus tests skipped: ${corpusPath('')} is absent`);

const csv = (rows: string[][]): CsvPage => ({
  kind: 'csv',
  url: 'https://api.houjin-bangou.nta.go.jp/4/num',
  charset: 'utf-8',
  rows,
});
const real = (file: string) =>
  normalizePage({
    body: readFileSync(corpusPath(`houjin-bangou/${file}`)),
    headers: { 'content-type': 'text/csv;charset=Shift_JIS' },
    finalUrl: 'https://api.houjin-bangou.nta.go.jp/2/num',
    input: 'csv',
  });
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as KumoError;
  }
  throw new Error('did not throw');
};
// The real Toyota row (v2, 28 columns).
const TOYOTA =
  '1,1180301018771,01,0,2015-11-13,2015-10-05,トヨタ自動車株式会社,,301,愛知県,豊田市,トヨタ町１番地,,23,211,4710826,,,,,,,2015-10-05,1,,,,'.split(
    ',',
  );

describe('houjin_bangou URL routing', () => {
  const typeOf = (u: string) => houjinBangou.pageTypes.find((p) => p.matches(new URL(u)))?.pageType ?? null;
  it.each([
    ['https://api.houjin-bangou.nta.go.jp/4/num?id=K&number=1180301018771&type=01', 'record'],
    ['https://api.houjin-bangou.nta.go.jp/2/num?id=K&number=1180301018771,6010001000001&type=02', 'record'],
    ['https://api.houjin-bangou.nta.go.jp/1/num?id=K&number=1180301018771&type=01', 'record'],
    ['https://api.houjin-bangou.nta.go.jp/4/diff?id=K&from=2024-01-01&to=2024-01-31&type=01', 'records'],
    ['https://api.houjin-bangou.nta.go.jp/3/name?id=K&name=%E3%83%88%E3%83%A8%E3%82%BF&type=02', 'records'],
    // XML answers are not read yet, and unknown versions or calls match nothing.
    ['https://api.houjin-bangou.nta.go.jp/4/num?id=K&number=1180301018771&type=12', null],
    ['https://api.houjin-bangou.nta.go.jp/4/num?id=K&number=1180301018771', null],
    ['https://api.houjin-bangou.nta.go.jp/5/num?id=K&number=1180301018771&type=01', null],
    ['https://api.houjin-bangou.nta.go.jp/4/search?id=K&type=01', null],
  ])('%s → %s', (url, type) => expect(typeOf(url)).toBe(type));

  it('keeps the application id a secret query parameter, redacted from stored URLs', () => {
    expect(houjinBangou.secretQueryParams).toEqual(['id']);
    const stored = redactUrl(
      new URL('https://api.houjin-bangou.nta.go.jp/4/num?id=PLANTED-APP-ID&number=1180301018771&type=01'),
      houjinBangou.secretQueryParams,
    );
    expect(stored).not.toContain('PLANTED-APP-ID');
    expect(stored).toContain('number=1180301018771');
  });
});

describe.skipIf(!haveCorpus)('houjin_bangou on the real v2 recordings', () => {
  it('num: トヨタ自動車株式会社, its address, post code, kind and assignment date', () => {
    const { data } = houjinRecordExtractor.extract(real('num.response.csv'));
    expect(data).toMatchObject({ last_updated: '2017-06-07', total: 1, part: 1, parts: 1 });
    expect((data.corporations as unknown[])[0]).toMatchObject({
      corporate_number: '1180301018771',
      name: 'トヨタ自動車株式会社',
      prefecture: '愛知県',
      city: '豊田市',
      street: 'トヨタ町1番地',
      post_code: '4710826',
      kind: '301',
      kind_name: '株式会社',
      assignment_date: '2015-10-05',
      latest: true,
    });
  });
  it('diff: 2,000 rows of part 1 of 3 (5,492 in all), first and last as recorded, every code known', () => {
    const extraction = houjinRecordsExtractor.extract(real('diff.response.csv'));
    validateExtraction('records', extraction);
    const { data } = extraction;
    expect(data).toMatchObject({ last_updated: '2017-06-06', total: 5492, part: 1, parts: 3 });
    const rows = data.corporations as {
      corporate_number: string;
      name: string | null;
      process: string;
      kind: string | null;
      kind_name: string | null;
      close_cause: string | null;
      close_cause_name: string | null;
    }[];
    expect(rows).toHaveLength(2000);
    expect(rows[0]).toMatchObject({
      corporate_number: '1010001091219',
      name: '株式会社アオバ・インターナショナル',
      close_cause: '01',
    });
    expect(rows.at(-1)).toMatchObject({ corporate_number: '3120001202670', name: '株式会社ZeaLs' });
    expect(rows.filter((r) => r.kind !== null && r.kind_name === null)).toEqual([]);
    expect(rows.filter((r) => r.close_cause !== null && r.close_cause_name === null)).toEqual([]);
    expect(rows.filter((r) => r.process === '99').every((r) => r.name === null && r.kind === null)).toBe(true);
  });
});

describe('houjin_bangou rows', () => {
  const header = ['2024-03-29', '1', '1', '1'];
  it('refuses a corporate number whose check digit is wrong, naming the line, not the value', () => {
    const row = [...TOYOTA];
    row[1] = '2180301018771';
    const error = errorOf(() => houjinRecordExtractor.extract(csv([header, row])));
    expect(error.code).toBe('extraction_failed');
    expect(error.message).toContain('line 2');
    expect(error.message).not.toContain('2180301018771');
  });
  it('refuses a row with too few columns, a bad date and a header that is not the four counts', () => {
    expect(errorOf(() => houjinRecordExtractor.extract(csv([header, TOYOTA.slice(0, 20)]))).code).toBe(
      'extraction_failed',
    );
    const badDate = [...TOYOTA];
    badDate[4] = '2015-02-30';
    expect(errorOf(() => houjinRecordExtractor.extract(csv([header, badDate]))).message).toContain('updateDate');
    expect(errorOf(() => houjinRecordExtractor.extract(csv([['2024-03-29', '1', '2', '1'], TOYOTA]))).code).toBe(
      'extraction_failed',
    );
  });
  it('keeps an unlisted kind code with a null name rather than guessing', () => {
    const row = [...TOYOTA];
    row[8] = '398';
    const { data } = houjinRecordExtractor.extract(csv([header, row]));
    expect((data.corporations as unknown[])[0]).toMatchObject({ kind: '398', kind_name: null });
  });
  it('publishes closed code lists', () => {
    expect(KIND_NAMES['301']).toBe('株式会社');
    expect(Object.keys(KIND_NAMES)).toHaveLength(10);
    expect(CLOSE_CAUSE_NAMES['11']).toBe('合併による解散等');
  });
  it('refuses a page that is not CSV', () => {
    const page = { kind: 'json', url: 'https://x', charset: 'utf-8', json: {} } as const;
    expect(errorOf(() => houjinRecordsExtractor.extract(page)).code).toBe('extraction_failed');
  });
});

describe('houjin_bangou through the produce pipeline (bytes → served data)', () => {
  const PLANTED = 'PLANTED-APP-ID-7f3a';
  const body = `2024-03-29,1,1,1\r\n${TOYOTA.map((v) => (v === '' ? '' : `"${v}"`)).join(',')}\r\n`;
  it.each([
    ['type=01 Shift_JIS', '01', iconv.encode(body, 'Shift_JIS'), 'text/csv;charset=Shift_JIS'],
    ['type=02 UTF-8', '02', new TextEncoder().encode(body), 'text/csv;charset=UTF-8'],
  ])('%s: decoded, validated, and the planted id appears nowhere in the answer', (_, type, bytes, contentType) => {
    const produced = produce(
      {
        extractorId: houjinRecordExtractor.id,
        body: new Uint8Array(bytes),
        headers: { 'content-type': contentType },
        finalUrl: `https://api.houjin-bangou.nta.go.jp/4/num?id=${PLANTED}&number=1180301018771&type=${type}`,
        wantData: true,
        wantHtml: false,
      },
      houjinRecordExtractor,
      { maxRows: 10_000, maxBytes: 1024 * 1024 },
    );
    expect(produced.html).toBeNull();
    const served = JSON.stringify(produced.extraction);
    expect(served).toContain('トヨタ自動車株式会社');
    expect(served).not.toContain(PLANTED);
  });
});
