// Table tests for parseDate: the formats of research §2.2–2.4 and the era rule of §0 rule 5.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDate, type ParsedDate } from './date.js';

interface DateCase {
  input: string;
  expected: string | null;
  source: string;
}
const outside = JSON.parse(readFileSync(new URL('./fixtures/dates.json', import.meta.url), 'utf8')) as {
  cases: DateCase[];
};

const bad: ParsedDate = { value: null, reason: 'invalid_date' };
const d = (value: string): ParsedDate => ({ value });

describe('parseDate', () => {
  it.each<[string, ParsedDate]>([
    // Western (§2.2)
    ['2024年4月1日', d('2024-04-01')],
    ['2024/4/1', d('2024-04-01')],
    ['2024/04/01', d('2024-04-01')],
    ['2024.4.1', d('2024-04-01')],
    ['2024-04-01', d('2024-04-01')],
    ['２０２４年４月１日', d('2024-04-01')],
    ['2024年12月31日', d('2024-12-31')],
    ['2000年2月29日', d('2000-02-29')],
    ['1999/12/31', d('1999-12-31')],
    // 和暦 (§2.1–2.3)
    ['令和6年4月1日', d('2024-04-01')],
    ['R6.4.1', d('2024-04-01')],
    ['R06.04.01', d('2024-04-01')],
    ['R6/4/1', d('2024-04-01')],
    ['H31.4.30', d('2019-04-30')],
    ['S64.1.7', d('1989-01-07')],
    ['M45.7.29', d('1912-07-29')],
    ['T15.12.24', d('1926-12-24')],
    ['令和６年４月１日', d('2024-04-01')],
    ['令和 6 年 4 月 1 日', d('2024-04-01')],
    ['令和六年四月一日', d('2024-04-01')],
    ['令和六年十二月二十五日', d('2024-12-25')],
    ['二〇二四年四月一日', d('2024-04-01')],
    ['令和元年5月1日', d('2019-05-01')],
    ['R1.5.1', d('2019-05-01')],
    ['平成元年1月8日', d('1989-01-08')],
    ['昭和元年12月25日', d('1926-12-25')],
    ['大正元年7月30日', d('1912-07-30')],
    ['明治45年7月29日', d('1912-07-29')],
    ['平成31年4月30日', d('2019-04-30')],
    ['平成31年5月1日', d('2019-05-01')],
    ['平成32年1月1日', d('2020-01-01')],
    ['平成32年4月', d('2020-04')],
    ['昭和64年1月7日', d('1989-01-07')],
    ['昭和65年1月1日', d('1990-01-01')],
    ['令和7年（2025年）3月31日', d('2025-03-31')],
    ['2025（令和7）年3月31日', d('2025-03-31')],
    ['㋿6年4月1日', d('2024-04-01')],
    ['㍻31年4月30日', d('2019-04-30')],
    ['㍼64年1月7日', d('1989-01-07')],
    // Month only, reference-date suffix
    ['2024年4月', d('2024-04')],
    ['令和6年4月', d('2024-04')],
    ['2024/4', d('2024-04')],
    ['2020年10月1日現在', d('2020-10-01')],
    ['令和2年10月1日現在', d('2020-10-01')],
    // Weekday markers must agree with the date
    ['2024年4月1日(月)', d('2024-04-01')],
    ['2024年4月1日（月）', d('2024-04-01')],
    ['2024年12月25日(水)', d('2024-12-25')],
    ['2024年4月29日(月・祝)', d('2024-04-29')],
    ['2024年4月29日(祝)', d('2024-04-29')],
    ['2024/4/1(月)', d('2024-04-01')],
    ['2024年4月1日(火)', bad],
    ['2024年12月25日(月)', bad],
    // Times in JST, 午前/午後, the 30-hour clock (§2.4)
    ['2024年4月1日 15:30', d('2024-04-01T15:30:00+09:00')],
    ['2024-04-01 09:05:07', d('2024-04-01T09:05:07+09:00')],
    ['2024-04-01T10:00:00+09:00', d('2024-04-01T10:00:00+09:00')],
    ['2024-04-01T01:00:00Z', d('2024-04-01T10:00:00+09:00')],
    ['2024-03-31T20:00:00Z', d('2024-04-01T05:00:00+09:00')],
    ['2024年4月1日 午後3時30分', d('2024-04-01T15:30:00+09:00')],
    ['2024年4月1日午前9時', d('2024-04-01T09:00:00+09:00')],
    ['2024年4月1日 午後0時', d('2024-04-01T12:00:00+09:00')],
    ['2024年4月1日 午前0時', d('2024-04-01T00:00:00+09:00')],
    ['2024年4月1日 午前12時', d('2024-04-01T12:00:00+09:00')],
    ['2024年4月1日 午後7時半', d('2024-04-01T19:30:00+09:00')],
    ['2024年4月1日 10時15分30秒', d('2024-04-01T10:15:30+09:00')],
    ['2024/4/1 25:30', d('2024-04-02T01:30:00+09:00')],
    ['2024/12/31 24:00', d('2025-01-01T00:00:00+09:00')],
    ['2024/2/28 29:59', d('2024-02-29T05:59:00+09:00')],
    ['令和6年4月1日(月) 午後3時', d('2024-04-01T15:00:00+09:00')],
    ['2024-04-01 10:00 JST', d('2024-04-01T10:00:00+09:00')],
    // Impossible or not dates
    ['2024-02-30', bad],
    ['2023年2月29日', bad],
    ['1900年2月29日', bad],
    ['2024年13月1日', bad],
    ['2024年0月1日', bad],
    ['2024年4月31日', bad],
    ['2024年4月0日', bad],
    ['令和0年1月1日', bad],
    ['2024/4/1 30:00', bad],
    ['2024/4/1 10:60', bad],
    ['2024年4月1日 午後13時', bad],
    ['午前12時', bad],
    ['令和6年度', bad],
    ['明日', bad],
    ['', bad],
  ])('%s', (input, expected) => {
    expect(parseDate(input)).toEqual(expected);
  });
});

describe('parseDate: the plain Y-M-D shortcut answers as the full reading does', () => {
  // A leading space fails the shortcut's pattern and is trimmed by the full reading: the oracle.
  const alphabet = [...'0123456789', '-', '/', '.', '-', '/', '年', '月', '日', 'T', ':', ' '];
  let seed = 99;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const inputs = [
    '2024-02-29',
    '2023-02-29',
    '2024-4-1',
    '2024/04/01',
    '2024.4.31',
    '2024-13-01',
    '2024-00-10',
    '0000-01-01',
  ];
  for (let i = 0; i < 5_000; i++) {
    // Mostly shaped like a date (four digits, a separator, digits, a separator, digits), sometimes not.
    const part = (n: number) => String(next() % n);
    const sep = () => alphabet[10 + (next() % (next() % 4 === 0 ? alphabet.length - 10 : 6))];
    const tail = ['', '', '', '', ' (月)', '(Mon)', ' 現在', '日', ' 12:00', 'T09:30', ' ', '年', ' 月曜日'][
      next() % 13
    ];
    inputs.push(`${1900 + (next() % 200)}${sep()}${part(14)}${sep()}${part(33)}${tail}`);
  }

  it('on 5,000 generated strings and the edge cases', () => {
    const differing = inputs.filter(
      (input) => JSON.stringify(parseDate(input)) !== JSON.stringify(parseDate(` ${input}`)),
    );
    expect(differing).toEqual([]);
    const answered = inputs.filter((input) => parseDate(input).value !== null);
    expect(answered.length).toBeGreaterThan(500);
  });
});

describe('weekday markers, short and long (issue 7 §6)', () => {
  it.each<[string, ParsedDate]>([
    ['2024年4月1日(月曜日)', d('2024-04-01')],
    ['2024年4月1日（月曜日）', d('2024-04-01')],
    ['2024年4月2日（火曜日）', d('2024-04-02')],
    ['2024年4月2日(火)', d('2024-04-02')],
    ['2024年4月2日（火）', d('2024-04-02')],
    ['2024年4月2日(火曜)', d('2024-04-02')],
    ['2024年4月2日 火曜日', d('2024-04-02')],
    ['2024年4月7日日曜日', d('2024-04-07')],
    ['2024年12月25日(水曜日)', d('2024-12-25')],
    ['2024/4/2(Tue)', d('2024-04-02')],
    ['2024/4/2 (Tue.)', d('2024-04-02')],
    ['2024年4月29日(月曜日・祝日)', d('2024-04-29')],
    ['令和6年4月2日(火曜日) 午後3時', d('2024-04-02T15:00:00+09:00')],
    ['令和六年四月二日（火曜日）', d('2024-04-02')],
    ['二千二十四年四月二日(火)', d('2024-04-02')],
    ['平成三十一年四月三十日', d('2019-04-30')],
  ])('%s', (input, expected) => {
    expect(parseDate(input)).toEqual(expected);
  });

  // A weekday that contradicts the date means one of the two is wrong, and nothing says which: null.
  it.each([
    '2024年4月1日(火曜日)',
    '2024年4月1日（火曜日）',
    '2024年4月2日(月)',
    '2024年4月2日 水曜日',
    '2024/4/2(Mon)',
    '2024年4月(月曜日)',
  ])('%s contradicts itself: null', (input) => {
    expect(parseDate(input)).toEqual(bad);
  });
});

describe('kanji numerals in dates use the numeral grammar', () => {
  it('a malformed kanji month or day is no date', () => {
    expect(parseDate('令和六年十十月一日')).toEqual(bad);
    expect(parseDate('2024年4月千日')).toEqual(bad);
  });
});

describe('Meiji 1–5 were lunisolar; era boundaries (issue 7 §6)', () => {
  // Japan adopted the Gregorian calendar on 明治6年1月1日 = 1873-01-01 (明治5年太政官布告第337号); JIS X 0301
  // leaves M01.01.01–M05.12.02 out of scope (kv5h/wareki-conv README.md, MIT, quoting the standard).
  it.each([
    '明治元年1月1日',
    '明治元年10月23日',
    '明治1年2月3日',
    'M01.02.03',
    '明01.02.03',
    '明治3年6月1日',
    '明治5年12月2日',
    '明治5年12月3日',
    '明治5年12月',
    'M5.12.31',
  ])('%s is lunisolar: null', (input) => {
    expect(parseDate(input)).toEqual(bad);
  });

  it.each<[string, ParsedDate]>([
    ['明治6年1月1日', d('1873-01-01')],
    ['M6.1.1', d('1873-01-01')],
    ['明治6年1月', d('1873-01')],
    ['明治45年7月29日', d('1912-07-29')],
    ['M45.2.3', d('1912-02-03')],
    // Each era's first day, and the last day of the era before it.
    ['大正元年7月30日', d('1912-07-30')],
    ['大正15年12月24日', d('1926-12-24')],
    ['昭和元年12月25日', d('1926-12-25')],
    ['昭和64年1月7日', d('1989-01-07')],
    ['平成元年1月8日', d('1989-01-08')],
    ['平成31年4月30日', d('2019-04-30')],
    ['令和元年5月1日', d('2019-05-01')],
    ['平成元年1月', d('1989-01')],
    ['昭和元年12月', d('1926-12')],
    // Rule 5 of research §0: an era's years run on after it ended (平成32年 is 2020), so these are read too.
    ['昭和64年1月8日', d('1989-01-08')],
    ['平成31年5月1日', d('2019-05-01')],
    ['大正15年12月25日', d('1926-12-25')],
    // JIS X 0301 one-kanji and letter forms (kv5h/wareki-conv src/lib.rs @036f7d3, MIT).
    ['平16.04.01', d('2004-04-01')],
    ['令02.06.23', d('2020-06-23')],
    ['H16.04.01', d('2004-04-01')],
    ['Ｈ０１．０２．０３', d('1989-02-03')],
    ['平成１年２月３日', d('1989-02-03')],
  ])('%s', (input, expected) => {
    expect(parseDate(input)).toEqual(expected);
  });

  // A day before its era began never existed. kv5h/wareki-conv expects R01.02.03 → 2019-02-03, H01.02.03 →
  // 1989-02-03 is fine, and T01.02.03 → 1912-02-03; we follow the calendar: Reiwa and Taishō had not begun.
  it.each([
    '令和元年4月30日',
    'R01.02.03',
    '令1.2.3',
    '令和元年4月',
    '平成元年1月7日',
    '昭和元年12月24日',
    'S01.2.3',
    '大正元年7月29日',
    'T01.02.03',
  ])('%s is before its era began: null', (input) => {
    expect(parseDate(input)).toEqual(bad);
  });
});

describe('outside suites (fixtures/dates.json)', () => {
  it.each(outside.cases)('$input → $expected ($source)', ({ input, expected }) => {
    expect(parseDate(input)).toEqual(expected === null ? bad : d(expected));
  });
});

describe('weekdays after a time, 西暦, spaced kanji numerals (issue 19)', () => {
  it.each<[string, ParsedDate]>([
    ['2015年11月3日午前9時5分 火曜日', d('2015-11-03T09:05:00+09:00')],
    ['平成27年11月3日午後三時 火曜', d('2015-11-03T15:00:00+09:00')],
    ['2015/11/3 21:40 火曜日', d('2015-11-03T21:40:00+09:00')],
    ['2015年11月3日火曜日午後9時', d('2015-11-03T21:00:00+09:00')],
    ['西暦1999年12月31日', d('1999-12-31')],
    ['西暦 2001年1月1日(月)', d('2001-01-01')],
    ['西暦二〇〇一年一月一日', d('2001-01-01')],
    ['西暦2001/1/1', d('2001-01-01')],
    ['明治 28 年 十二 月 9 日', d('1895-12-09')],
  ])('%s', (input, expected) => {
    expect(parseDate(input)).toEqual(expected);
  });

  it.each(['2015年11月3日午前9時5分 水曜日', '2015/11/3 21:40 月曜', '西暦令和6年4月1日', '西暦'])(
    '%s → invalid',
    (input) => {
      expect(parseDate(input)).toEqual({ value: null, reason: 'invalid_date' });
    },
  );
});

describe('a year in both calendars (issue 19)', () => {
  it.each<[string, ParsedDate]>([
    ['2023年(令和5年)6月30日', d('2023-06-30')],
    ['西暦2019年（令和元年）5月1日', d('2019-05-01')],
    ['平成30年(2018年)12月1日', d('2018-12-01')],
    ['1989(平成元)年1月8日', d('1989-01-08')],
  ])('%s', (input, expected) => {
    expect(parseDate(input)).toEqual(expected);
  });

  it.each(['令和5年(2024年)6月30日', '2023年(令和6年)6月30日', '2018(平成29)年12月1日'])(
    '%s: the calendars disagree → invalid',
    (input) => {
      expect(parseDate(input)).toEqual({ value: null, reason: 'invalid_date' });
    },
  );
});
