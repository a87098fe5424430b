// Points granted on a purchase (a rebate, never the price): `330pt (1%)`, `30ポイント(1倍)`, `ポイント10倍`,
// `10%還元(330ポイント)`, `20 PT`. Rakuten and Yahoo write the rate as 倍 where 1倍 is 1%.
import { normalizeText } from './text.js';

export interface ParsedPoints {
  amount: number | null;
  /** Percent of the price (1 = 1%); null when the text gives no rate. */
  rate: number | null;
}

const AMOUNT = /([0-9][0-9,]*)\s*(?:ポイント|pt\b|pts\b|p\b|point(?:s)?\b)/i;
const PERCENT = /([0-9]+(?:\.[0-9]+)?)\s*%/;
const TIMES = /([0-9]+(?:\.[0-9]+)?)\s*倍/;

/** Null fields when the text names no points; an amount only when it is written with a points word. */
export function parsePoints(text: string): ParsedPoints {
  const s = normalizeText(text);
  const amountMatch = AMOUNT.exec(s);
  const amount = amountMatch ? Number(amountMatch[1]!.replace(/,/g, '')) : null;
  const percent = PERCENT.exec(s);
  const times = TIMES.exec(s);
  const rate = percent ? Number(percent[1]) : times ? Number(times[1]) : null;
  return {
    amount: amount !== null && Number.isSafeInteger(amount) ? amount : null,
    rate: rate !== null && Number.isFinite(rate) && rate <= 100 ? rate : null,
  };
}
