// The shared reference-price rule: discount phrases are never list prices, labelled rows and clauses are.
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { isDiscountPhrase, listPriceIn, listPriceInRows } from './reference-price.js';
import { first } from './selectors.js';

const LABELS = ['参考価格', '通常価格', 'メーカー希望小売価格', '希望小売価格', '定価', '当店通常価格'];
const yen = (n: number) => n.toLocaleString('en-US');
// Each discount phrase a shop writes, around an amount, in both yen notations.
const discounts = (label: string, n: number): string[] => [
  `（${label}より￥${yen(n)}の値引き）`,
  `${label}より${yen(n)}円お得`,
  `${label}から¥${yen(n)}OFF`,
  `(${label}比 ${yen(n)}円引き)`,
  `${label}と比べて${yen(n)}円おトク`,
  `${label}：値引き ${yen(n)}円`,
  `${label} ￥${yen(n)}の割引`,
  `${label} ${yen(n)}円オフ`,
];

describe('listPriceIn', () => {
  for (const label of LABELS) {
    for (const n of [980, 4500, 12800, 1198000]) {
      it(`never reads a discount as ${label} (${n})`, () => {
        for (const phrase of discounts(label, n)) {
          expect(listPriceIn(`￥${yen(n * 2)}${phrase}`), phrase).toBeNull();
          expect(isDiscountPhrase(phrase), phrase).toBe(true);
        }
      });

      it(`reads ${label} written with its own amount (${n}), after a discount phrase too`, () => {
        for (const own of [`${label}：￥${yen(n)}`, `${label} ${yen(n)}円(税込)`, `${label}(税込) ¥${yen(n)}`]) {
          expect(listPriceIn(own), own).toEqual({ amount: n, label });
          const both = `販売価格 ￥${yen(Math.floor(n / 2))}${discounts(label, n - Math.floor(n / 2))[0]} ${own}`;
          expect(listPriceIn(both), both).toEqual({ amount: n, label });
        }
      });
    }
  }

  it('keeps a list price whose discount is stated as a figure of its own', () => {
    expect(listPriceIn('参考価格 6,480円 値引額 4,500円')).toEqual({ amount: 6480, label: '参考価格' });
    expect(listPriceIn('通常価格 5,000円 (20%OFF)')).toEqual({ amount: 5000, label: '通常価格' });
  });

  it('reads nothing when a label has no amount of its own', () => {
    expect(listPriceIn('メーカー希望小売価格：オープン価格 販売価格 3,980円')).toBeNull();
  });
});

describe('listPriceInRows', () => {
  const table = (rows: string) => first(parseDocument(`<div id="s">${rows}</div>`), '#s')!;
  it('reads the labelled row, not the discount phrase in the price cell', () => {
    for (const [list, price] of [
      [6980, 2780],
      [39600, 33000],
      [1298000, 1198000],
    ] as const) {
      const html =
        `<table><tr><th>販売価格(税込)：</th><td>￥${yen(price)}<span>（参考価格より￥${yen(list - price)}の値引き）</span></td></tr>` +
        `<tr><th>参考価格：</th><td><span>￥${yen(list)}</span>（税込）</td></tr></table>`;
      expect(listPriceInRows(table(html))).toEqual({ amount: list, label: '参考価格' });
    }
    expect(listPriceInRows(table('<dl><dt>通常価格</dt><dd>4,980円</dd></dl>'))).toEqual({
      amount: 4980,
      label: '通常価格',
    });
  });

  it('reads no row whose value is itself a discount', () => {
    expect(listPriceInRows(table('<table><tr><th>参考価格</th><td>より￥4,500の値引き</td></tr></table>'))).toBeNull();
    expect(listPriceInRows(table('<table><tr><th>参考価格からの割引</th><td>￥4,500</td></tr></table>'))).toBeNull();
  });
});
