// Japanese date and time strings (Western and 和暦) → ISO 8601 in JST, per research §0 rule 5 and §2.
import { parseNumeral } from './number.js';
import { normalizeText } from './text.js';

export interface ParsedDate {
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY-MM-DDTHH:MM:SS+09:00`; null when the string is no real date. */
  value: string | null;
  reason?: 'invalid_date';
}

// Era year = base + N, deliberately not clipped at the era's end: 平成32年 is 2020 (§2.3).
const ERA_BASE: Readonly<Record<string, number>> = {
  明治: 1867,
  大正: 1911,
  昭和: 1925,
  平成: 1988,
  令和: 2018,
  M: 1867,
  T: 1911,
  S: 1925,
  H: 1988,
  R: 2018,
  明: 1867,
  大: 1911,
  昭: 1925,
  平: 1988,
  令: 2018,
};
// JIS X 0301 also writes the era as one kanji (平16.04.01, 令02.06.23).
const ERA = '明治|大正|昭和|平成|令和|[MTSHR]|[明大昭平令](?=\\s*(?:元|\\d))';
// The first Gregorian day of each era. Meiji is absent on purpose: its years 1–5 (until 明治5年12月2日) were
// lunisolar, and Japan adopted the Gregorian calendar on 明治6年1月1日 = 1873-01-01 (JIS X 0301 leaves them out
// of scope). A date before its era began never existed (令和元年4月30日); a date after an era ended is still read
// (rule 5: 平成32年 is 2020), because the government kept such documents valid.
const ERA_START: Readonly<Record<string, readonly [number, number, number]>> = {
  大正: [1912, 7, 30],
  昭和: [1926, 12, 25],
  平成: [1989, 1, 8],
  令和: [2019, 5, 1],
};
const ERA_NAME: Readonly<Record<string, string>> = {
  M: '明治',
  T: '大正',
  S: '昭和',
  H: '平成',
  R: '令和',
  明: '明治',
  大: '大正',
  昭: '昭和',
  平: '平成',
  令: '令和',
};
const GREGORIAN_MEIJI_YEAR = 6;
const WEEKDAYS = '日月火水木金土';
const ENGLISH_WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
// 二〇二四 is read digit by digit, 二千二十四 and 十二 positionally (official documents use both, §2.2), with the
// numeral grammar prices and numbers use; a malformed run (十十) is left as written, so the date fails.
function kanjiNumber(run: string): string {
  const parsed = parseNumeral(run);
  return parsed && parsed.exp === 0 ? String(parsed.units) : run;
}

// Built once: a date column calls parseDate for every row.
const WESTERN_THEN_ERA = new RegExp(String.raw`(\d{4})\s*\(\s*(${ERA})\s*(元|\d{1,2})\s*年?\s*\)\s*年`, 'g');
// 2024年(令和6年)4月1日: the same pair with 年 on both.
const WESTERN_YEAR_THEN_ERA = new RegExp(String.raw`(\d{4})\s*年\s*\(\s*(${ERA})\s*(元|\d{1,2})\s*年?\s*\)`, 'g');
// 令和7年(2025年)3月31日.
const ERA_THEN_WESTERN = new RegExp(String.raw`(${ERA})\s*(元|\d{1,2})\s*年\s*\(\s*(\d{4})\s*年?\s*\)`, 'g');
const eraYear = (era: string, n: string): number => ERA_BASE[era]! + (n === '元' ? 1 : Number(n));
const ERA_THEN_SPACE = new RegExp(String.raw`(${ERA.replace('|[MTSHR]', '')})\s+`, 'g');
const DATE = new RegExp(
  String.raw`^(?:(${ERA})(元|\d{1,2})(?:年|[./-])|(\d{4})(?:年|[./-]))(\d{1,2})(?:月|[./-])?(?:(\d{1,2})日?)?`,
);
const PLAIN_DATE = /^\d{4}[./-]\d{1,2}[./-]\d{1,2}$/;

const invalid: ParsedDate = { value: null, reason: 'invalid_date' };
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function prepare(input: string): { text: string; weekday: string | null; conflict: boolean } {
  // Both calendars written for one year must name the same year; if not, one is wrong and nothing says which.
  let conflict = false;
  const keep = (western: string, era: string, n: string, kept: string): string => {
    if (eraYear(era, n) !== Number(western)) conflict = true;
    return kept;
  };
  let s = normalizeText(input);
  // Kanji numerals only where they count something in a date; 日 and 月 as weekdays are left alone.
  s = s.replace(/[〇零一二三四五六七八九十百千]+(?=\s*[年月日時分秒])/g, kanjiNumber);
  let weekday: string | null = null;
  // (月), (月曜), (月曜日), (月・祝), (祝), (Mon): in ASCII or full-width parentheses (NFKC made them ASCII).
  s = s.replace(
    /\(\s*(?:([日月火水木金土])(?:曜日?)?|(Sun|Mon|Tue|Wed|Thu|Fri|Sat)[a-z]*\.?)?\s*(?:[・,]?\s*祝日?)?\s*\)/gi,
    (_m, day: string | undefined, english: string | undefined) => {
      if (day) weekday = day;
      else if (english) weekday = WEEKDAYS[ENGLISH_WEEKDAYS.indexOf(english.toLowerCase())] ?? null;
      return ' ';
    },
  );
  // A weekday written out without parentheses, after the date or after its time (2024年4月1日 月曜日,
  // 2010年2月14日午後3時25分 日曜日, 2024/4/1 10:00 月曜): wherever it stands, it names the day and must agree.
  s = s.replace(/(?<=[日時分秒半]|\d|\s)\s*([日月火水木金土])曜日?(?=\s|$|午[前後]|\d)/g, (_m, day: string) => {
    weekday = day;
    return ' ';
  });
  s = s
    // 西暦 (Common Era) only says which calendar the year is in; it was never a date of its own.
    .replace(/^西暦\s*(?=\d)/, '')
    .replace(/現在|時点|JST/g, ' ')
    // Both calendars (令和7年(2025年)3月31日, 2025(令和7)年3月31日, 2025年(令和7年)3月31日) keep one of them.
    .replace(ERA_THEN_WESTERN, (_m, era: string, n: string, western: string) => keep(western, era, n, `${era}${n}年`))
    .replace(WESTERN_YEAR_THEN_ERA, (_m, western: string, era: string, n: string) =>
      keep(western, era, n, `${western}年`),
    )
    .replace(WESTERN_THEN_ERA, (_m, western: string, era: string, n: string) => keep(western, era, n, `${western}年`))
    // Spaced alignment (令和 6 年 4 月 1 日): spaces around the date words carry nothing.
    .replace(/\s*([年月日時分秒元])\s*/g, '$1')
    .replace(ERA_THEN_SPACE, '$1')
    .trim();
  return { text: s, weekday, conflict };
}

/**
 * Parses one date or date-time. Year-month alone gives `YYYY-MM`; a time gives JST `+09:00`. 午前/午後 and the
 * 30-hour clock (25:30 = 01:30 the next day) are read; a weekday marker must agree with the date.
 */
export function parseDate(input: string): ParsedDate {
  // An ASCII Y-M-D (2024-04-01, 2024/4/1) is already what prepare() would make of it.
  const { text, weekday, conflict } = PLAIN_DATE.test(input)
    ? { text: input, weekday: null, conflict: false }
    : prepare(input);
  const m = DATE.exec(text);
  if (!m || conflict) return invalid;
  const [matched, era, eraYear, western, monthText, dayText] = m;
  const n = eraYear === '元' ? 1 : Number(eraYear);
  const year = era ? ERA_BASE[era]! + n : Number(western);
  if (era && n < 1) return invalid;
  const eraName = era ? (ERA_NAME[era] ?? era) : null;
  if (eraName === '明治' && n < GREGORIAN_MEIJI_YEAR) return invalid;
  const start = eraName ? ERA_START[eraName] : undefined;
  const month = Number(monthText);
  if (month < 1 || month > 12) return invalid;
  let rest = text.slice(matched.length).trim();
  if (dayText === undefined) {
    if (rest !== '' || weekday) return invalid;
    // A month wholly before its era began (令和元年4月) never existed; 平成元年1月 did, from the 8th.
    if (start && year * 12 + month < start[0] * 12 + start[1]) return invalid;
    return { value: `${pad(year, 4)}-${pad(month)}` };
  }
  const day = Number(dayText);
  if (day < 1 || day > daysIn(year, month)) return invalid;
  if (start && Date.UTC(year, month - 1, day) < Date.UTC(start[0], start[1] - 1, start[2])) return invalid;
  if (weekday !== null && WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()] !== weekday) return invalid;
  rest = rest.replace(/^T/, '');
  if (rest === '') return { value: `${pad(year, 4)}-${pad(month)}-${pad(day)}` };

  const t =
    /^(午前|午後|AM|PM)?(\d{1,2})(?:時|:)(?:(\d{1,2})|(半))?(?:分|:)?(?:(\d{1,2})秒?)?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
      rest,
    );
  if (!t) return invalid;
  const [, meridiem, hourText, minuteText, half, secondText, offset] = t;
  let hour = Number(hourText);
  const minute = half ? 30 : Number(minuteText ?? 0);
  const second = Number(secondText ?? 0);
  if (minute > 59 || second > 59) return invalid;
  if (meridiem) {
    if (hour > 12) return invalid;
    // 午前12時 is noon and 午後12時 midnight (明治5年太政官布告第337号, §2.4); 午後0時 is noon.
    const pm = /午後|PM/i.test(meridiem);
    if (pm) hour = hour === 12 ? 24 : hour + 12;
  } else if (hour > 29) return invalid;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (offset && offset.toUpperCase() !== '+09:00' && offset !== '+0900') {
    const o = /^([+-])(\d{2}):?(\d{2})$/.exec(offset);
    const offsetMinutes = o ? (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) : 0;
    ms += (9 * 60 - offsetMinutes) * 60_000;
  }
  // Hours 24–29 (late-night listings) and offsets roll over into the JST calendar day.
  const d = new Date(ms);
  const iso = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return { value: `${iso}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+09:00` };
}
