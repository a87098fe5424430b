// Property tests: yen amounts and dates printed every way Japanese pages print them read back as themselves or null.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDate } from './date.js';
import { parseNumber } from './number.js';
import { parsePrice } from './price.js';

// Fixed, so that CI runs the same cases every time; fast-check names the seed and the shrunk counterexample when
// a property fails, and each counterexample found so far is kept as a plain example in price.test.ts / date.test.ts.
const SEED = 19_2026;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });

const FULL_WIDTH = '０１２３４５６７８９';
const fullWidth = (s: string): string =>
  s
    .replace(/[0-9]/g, (d) => FULL_WIDTH[Number(d)]!)
    .replace(/,/g, '，')
    .replace(/\./g, '．');
const commas = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const KANJI = '〇一二三四五六七八九';
// 千二百三十四: 一 is left unwritten before 十/百/千, as pages write it.
function kanjiGroup(n: number): string {
  let out = '';
  for (const [unit, size] of [
    ['千', 1000],
    ['百', 100],
    ['十', 10],
  ] as const) {
    const digit = Math.floor(n / size) % 10;
    if (digit > 0) out += (digit === 1 ? '' : KANJI[digit]) + unit;
  }
  return n % 10 > 0 ? out + KANJI[n % 10] : out;
}
function kanjiNumber(n: number): string {
  if (n === 0) return '〇';
  let out = '';
  for (const [unit, size] of [
    ['兆', 1e12],
    ['億', 1e8],
    ['万', 1e4],
  ] as const) {
    const group = Math.floor(n / size) % 10_000;
    if (group > 0) out += (group === 1 ? '一' : kanjiGroup(group)) + unit;
  }
  return out + kanjiGroup(n % 10_000);
}

// The numeral itself: the integer n in one of the notations a page uses.
const numeral = (n: number): fc.Arbitrary<string> => {
  const forms: fc.Arbitrary<string>[] = [fc.constant(String(n)), fc.constant(commas(n))];
  // Thousands groups that text nodes split apart: `1 ,198 ,000`, `12, 345`.
  if (n >= 1000) {
    forms.push(
      fc.array(fc.constantFrom(',', ' ,', ', ', ' , ', '　，', '，　'), { minLength: 4, maxLength: 4 }).map((seps) => {
        let i = 0;
        return commas(n).replace(/,/g, () => seps[i++ % seps.length]!);
      }),
    );
  }
  // 万/億 forms: 12万円, 1万2,000円, 1万2000円, 3億4,500万円, 1万0500円 (the group below 万 written out or not).
  if (n >= 10_000) {
    const man = Math.floor(n / 10_000);
    const below = n % 10_000;
    const manText =
      man >= 10_000
        ? `${commas(Math.floor(man / 10_000))}億${man % 10_000 ? commas(man % 10_000) + '万' : ''}`
        : `${commas(man)}万`;
    if (below === 0) forms.push(fc.constant(manText));
    else
      forms.push(
        fc.constantFrom(
          `${manText}${below}`,
          `${manText}${commas(below)}`,
          `${manText}${String(below).padStart(4, '0')}`,
          ...(below % 1000 === 0 ? [`${manText}${below / 1000}千`] : []),
        ),
      );
  }
  if (n > 0 && n < 1e16) forms.push(fc.constant(kanjiNumber(n)));
  return fc.oneof(...forms).chain((text) => fc.constantFrom(text, fullWidth(text)));
};

// A price as a page prints it: currency sign or 円, a tax marker, in any order that pages use.
const printedPrice = (n: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      numeral(n),
      fc.constantFrom('¥', '￥', '¥ ', '￥　', '円', ' 円', '\\'),
      fc.constantFrom('', '税込', '税抜', '(税込)', '（税込）', '（税抜）', '(税別)', '+税', '税込 ', '本体'),
      fc.boolean(),
    )
    .map(([digits, currency, tax, taxFirst]) => {
      // 円 follows the numeral; ¥ (or a legacy backslash) comes before it. Kanji numerals take 円 only.
      const kanji = /^[〇一二三四五六七八九十百千万億兆]/.test(digits);
      const amount =
        currency.trim() === '円' || kanji
          ? `${digits}${currency.trim() === '円' ? currency : '円'}`
          : `${currency}${digits}`;
      if (tax === '') return amount;
      return taxFirst && !tax.startsWith('(') && !tax.startsWith('（') && tax !== '+税'
        ? `${tax}${amount}`
        : `${amount}${tax}`;
    });

// Text around the price drawn from characters that can neither make a number nor name a unit, a tax or a non-price.
const SAFE = 'あいうえおかきくけこさしすせそアイウエオカキクケコ商品名特売セール：【】/ ABCxyz-_#';
const surrounding = fc.string({ unit: fc.constantFrom(...SAFE), maxLength: 6 });

// Whitespace where text nodes meet: anywhere in the printed price.
const withNodeBreaks = (text: string): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.nat({ max: text.length }), fc.constantFrom(' ', '　', '\n', ' \t ')), { maxLength: 3 })
    .map((breaks) => {
      let out = text;
      for (const [at, space] of breaks.sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + space + out.slice(at);
      return out;
    });

const yen = fc.oneof(fc.integer({ min: 0, max: 9_999 }), fc.integer({ min: 0, max: 99_999_999_999 }));

describe('parsePrice properties', () => {
  it('an integer yen printed any way a page prints it reads back as itself or as null, never another number', () => {
    const printed = yen.chain((n) =>
      fc
        .tuple(surrounding, printedPrice(n), surrounding)
        .chain(([before, price, after]) => withNodeBreaks(price).map((p) => ({ n, text: `${before}${p}${after}` }))),
    );
    fc.assert(
      fc.property(printed, ({ n, text }) => {
        const { amount } = parsePrice(text);
        // Itself or null; any other number is the wrong value this suite exists to rule out.
        expect([null, n], text).toContain(amount);
      }),
      runs(8000),
    );
  });

  it('printed without node breaks or surrounding words, it reads back as itself', () => {
    const printed = yen.chain((n) => printedPrice(n).map((text) => ({ n, text })));
    fc.assert(
      fc.property(printed, ({ n, text }) => {
        expect(parsePrice(text).amount, text).toBe(n);
      }),
      runs(2000),
    );
  });

  it('a negotiation word beside any amount makes it no price', () => {
    const printed = yen.chain((n) =>
      fc
        .tuple(
          printedPrice(n),
          fc.constantFrom('応相談', '要相談', '(相談可)', 'ASK', '価格交渉可', '価格はお問い合わせください', '応談'),
          fc.boolean(),
        )
        .map(([price, word, first]) => (first ? `${word} ${price}` : `${price} ${word}`)),
    );
    fc.assert(
      fc.property(printed, (text) => {
        expect(parsePrice(text).amount, text).toBeNull();
      }),
      runs(1000),
    );
  });
});

describe('parseNumber properties', () => {
  it('an integer printed as a table or prose writes it, signed or not, reads back as itself', () => {
    const printed = fc
      .tuple(
        fc.integer({ min: 1, max: 999_999_999_999 }),
        fc.constantFrom('', '-', '△', '▲', '−', 'マイナス', 'マイナス '),
      )
      .chain(([n, sign]) => numeral(n).map((text) => ({ expected: sign === '' ? n : -n, text: `${sign}${text}` })));
    fc.assert(
      fc.property(printed, ({ expected, text }) => {
        expect(parseNumber(text)?.value, text).toBe(expected);
      }),
      runs(4000),
    );
  });
});

// Era of a Gregorian day (research §2.1): Meiji from 1873 (Gregorian), then the eras' first days.
const ERAS = [
  { name: '令和', abbr: 'R', start: [2019, 5, 1] },
  { name: '平成', abbr: 'H', start: [1989, 1, 8] },
  { name: '昭和', abbr: 'S', start: [1926, 12, 25] },
  { name: '大正', abbr: 'T', start: [1912, 7, 30] },
  { name: '明治', abbr: 'M', start: [1868, 1, 1] },
] as const;
const eraOf = (y: number, m: number, d: number) =>
  ERAS.find((e) => y * 10_000 + m * 100 + d >= e.start[0] * 10_000 + e.start[1] * 100 + e.start[2])!;
const pad = (n: number) => String(n).padStart(2, '0');
const WEEKDAYS = '日月火水木金土';
const ENGLISH = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

interface Moment {
  y: number;
  m: number;
  d: number;
  time: { h: number; min: number } | null;
}

const moment: fc.Arbitrary<Moment> = fc
  .tuple(
    fc.date({ min: new Date(Date.UTC(1873, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true }),
    fc.option(fc.record({ h: fc.integer({ min: 0, max: 23 }), min: fc.integer({ min: 0, max: 59 }) })),
  )
  .map(([date, time]) => ({ y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate(), time }));

const expectedIso = ({ y, m, d, time }: Moment): string =>
  `${y}-${pad(m)}-${pad(d)}` + (time ? `T${pad(time.h)}:${pad(time.min)}:00+09:00` : '');

// A number in a date: Arabic, full-width, or kanji (positional 二十五; years also digit by digit 二〇二四).
const dateNumber = (n: number, isYear = false): fc.Arbitrary<string> =>
  fc.constantFrom(
    String(n),
    fullWidth(String(n)),
    kanjiNumber(n),
    ...(isYear ? [String(n).replace(/\d/g, (c) => KANJI[Number(c)]!)] : []),
  );

const printedDay = ({ y, m, d }: Moment): fc.Arbitrary<string> => {
  const era = eraOf(y, m, d);
  const n = y - era.start[0] + 1;
  const kanjiDate = fc
    .tuple(
      fc.oneof(
        dateNumber(y, true).map((year) => ({ year, prefix: fc.constantFrom('', '西暦', '西暦 ') })),
        (n === 1 ? fc.constant('元') : dateNumber(n)).map((year) => ({ year, prefix: fc.constant(era.name) })),
      ),
      dateNumber(m),
      dateNumber(d),
      fc.constantFrom('', ' '),
    )
    .chain(([{ year, prefix }, month, day, gap]) =>
      prefix.map((p) => `${p}${gap}${year}${gap}年${gap}${month}${gap}月${gap}${day}${gap}日`),
    );
  const numeric = fc
    .tuple(fc.constantFrom('/', '.', '-'), fc.boolean(), fc.constantFrom('', '西暦', 'era'))
    .map(([sep, padded, prefix]) => {
      const mm = padded || sep === '-' ? pad(m) : String(m);
      const dd = padded || sep === '-' ? pad(d) : String(d);
      if (prefix === 'era' && era.abbr !== 'M') return `${era.abbr}${n}${sep}${mm}${sep}${dd}`;
      return `${prefix === '西暦' ? '西暦' : ''}${y}${sep}${mm}${sep}${dd}`;
    });
  // Both calendars at once: 2025年(令和7年)3月31日, 令和7年（2025年）3月31日, 2025（令和7）年3月31日.
  const eraYear = n === 1 ? '元' : String(n);
  const both = fc.constantFrom(
    `${y}年(${era.name}${eraYear}年)${m}月${d}日`,
    `${era.name}${eraYear}年（${y}年）${m}月${d}日`,
    `${y}（${era.name}${eraYear}）年${m}月${d}日`,
  );
  return fc.oneof(kanjiDate, numeric, both);
};

const printedTime = (h: number, min: number): fc.Arbitrary<string> => {
  const meridiem = h < 12 ? '午前' : '午後';
  const h12 = h % 12;
  return fc.constantFrom(
    `${pad(h)}:${pad(min)}`,
    `${h}:${pad(min)}`,
    `${meridiem}${h12}時${min}分`,
    `${meridiem}${h12 === 0 ? '〇' : kanjiNumber(h12)}時${min === 0 ? '' : `${kanjiNumber(min)}分`}`,
    ...(min === 30 ? [`${meridiem}${h12}時半`] : []),
    ...(min === 0 ? [`${meridiem}${h12}時`, `${h}時`] : [`${h}時${min}分`]),
  );
};

const printedMoment = (mo: Moment): fc.Arbitrary<string> => {
  const weekday = new Date(Date.UTC(mo.y, mo.m - 1, mo.d)).getUTCDay();
  const w = WEEKDAYS[weekday]!;
  return fc
    .tuple(
      printedDay(mo),
      mo.time ? printedTime(mo.time.h, mo.time.min) : fc.constant(''),
      fc.constantFrom('', `(${w})`, `（${w}）`, `（${w}曜）`, ` ${w}曜日`, ` ${w}曜`, `(${ENGLISH[weekday]})`),
      fc.constantFrom('before', 'after'),
    )
    .map(([day, time, weekdayText, where]) => {
      if (time === '') return `${day}${weekdayText}`;
      // A weekday after the time stands as its own word.
      return where === 'before'
        ? `${day}${weekdayText} ${time}`
        : `${day} ${time}${weekdayText.startsWith(' ') || weekdayText === '' ? weekdayText : ` ${weekdayText}`}`;
    });
};

describe('parseDate properties', () => {
  it('a date printed in any documented form (和暦, 元年, 西暦, weekdays, kanji times) reads back as itself', () => {
    const printed = moment.chain((mo) => printedMoment(mo).map((text) => ({ text, expected: expectedIso(mo) })));
    fc.assert(
      fc.property(printed, ({ text, expected }) => {
        expect(parseDate(text).value, text).toBe(expected);
      }),
      runs(8000),
    );
  });
});
