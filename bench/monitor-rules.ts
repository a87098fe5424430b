// `node bench/monitor-rules.ts`: µs per check of the monitor's diff and rule engine (research §2.6: ≤ 0.1 ms a check);
// bench/monitors.ts runs it too (`measureRules`). Runs on Node 24's own TypeScript stripping against src/ (no build:
// the engine is pure code). Options: --checks N (default 200,000), --rounds N (default 5, the median reported).
import './source-imports.ts';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Observation, Rule, TargetState } from '../src/monitors/model.ts';
import { countOption } from './load.ts';

const { defaultNoise, defaultWatch, emptyTargetState } = await import('../src/monitors/model.ts');
const { evaluateCheck, observationOf, lowsKey } = await import('../src/monitors/rules.ts');

// The research's example rules (§2.5) and a sale transition: seven, on five fields.
const rules: Rule[] = [
  { id: 'drop5', when: { field: 'price', change_pct_lte: -5 } },
  { id: 'rise3', when: { field: 'price', change_pct_gte: 3 } },
  { id: 'under30k', when: { field: 'effective_price', lte: 30000 }, mode: 'enter' },
  { id: 'newlow', when: { field: 'price', below_lowest_days: 90 } },
  {
    id: 'restock',
    when: { field: 'availability', from: ['out_of_stock', 'discontinued'], to: ['in_stock', 'limited'] },
  },
  { id: 'pts', when: { field: 'points_rate', change_gte: 5 } },
  { id: 'sale', when: { field: 'on_sale', to: ['true'] } },
];
const watch = [...defaultWatch, 'points_rate', 'on_sale', 'effective_price'] as const;
const noise = { ...defaultNoise, cooldown_minutes: 60 };
const lows = new Map([[lowsKey('price', 90), 29_000]]);

// A deterministic price walk around the 30,000 bound, with 1-yen noise, restocks and sales, so every path is taken.
const pages: Array<Record<string, unknown>> = [];
let price = 32_000;
let seed = 20_261_127;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
for (let i = 0; i < 4096; i++) {
  const r = random();
  price =
    r < 0.5 ? price + (r < 0.25 ? 1 : -1) : Math.max(25_000, Math.min(36_000, price + Math.round((r - 0.75) * 4000)));
  pages.push({
    title: 'WH-1000XM5',
    price,
    price_tax: 'included',
    points: Math.floor(price / 100),
    points_rate: random() < 0.05 ? 10 : 1,
    shipping: random() < 0.9 ? 'free' : 'extra',
    shipping_fee: random() < 0.5 ? 440 : undefined,
    availability: random() < 0.1 ? 'out_of_stock' : 'in_stock',
    on_sale: random() < 0.2,
  });
}
const observations: Observation[] = pages.map((page) => observationOf(page, watch));
const start = Date.parse('2026-11-27T00:00:00Z');
const times = Array.from({ length: 4096 }, (_, i) => new Date(start + i * 600_000).toISOString());

function evaluateOnly(n: number): { alerts: number } {
  let state: TargetState = emptyTargetState;
  let alerts = 0;
  for (let i = 0; i < n; i++) {
    const at = i & 4095;
    const verdict = evaluateCheck({ watch, rules, noise, state, observation: observations[at]!, at: times[at]!, lows });
    if (verdict.alert) alerts++;
    // Wrapping round the time series would go back in time; start the target over instead.
    state = at === 4095 ? emptyTargetState : verdict.state;
  }
  return { alerts };
}

function withObservation(n: number): { alerts: number } {
  let state: TargetState = emptyTargetState;
  let alerts = 0;
  for (let i = 0; i < n; i++) {
    const at = i & 4095;
    const observation = observationOf(pages[at]!, watch);
    const verdict = evaluateCheck({ watch, rules, noise, state, observation, at: times[at]!, lows });
    if (verdict.alert) alerts++;
    state = at === 4095 ? emptyTargetState : verdict.state;
  }
  return { alerts };
}

function measure(name: string, body: (n: number) => { alerts: number }, checks: number, rounds: number): number {
  body(Math.min(checks, 20_000));
  const perCheck: number[] = [];
  let alerts = 0;
  for (let round = 0; round < rounds; round++) {
    const t0 = performance.now();
    alerts = body(checks).alerts;
    perCheck.push(((performance.now() - t0) * 1000) / checks);
  }
  perCheck.sort((a, b) => a - b);
  const median = perCheck[Math.floor(perCheck.length / 2)]!;
  const range = `${perCheck[0]!.toFixed(2)}–${perCheck.at(-1)!.toFixed(2)}`;
  console.log(`${name}: ${median.toFixed(2)} µs per check (median of ${rounds}; range ${range}), ${alerts} alerts`);
  return median;
}

/** Prints, and returns, the median µs per check of the engine alone and with the observation read from the page. */
export function measureRules(checks: number, rounds: number): { evaluate: number; withObservation: number } {
  console.log(`${checks} checks, ${rules.length} rules, ${watch.length} watched fields, Node ${process.version}`);
  return {
    evaluate: measure('evaluateCheck', evaluateOnly, checks, rounds),
    withObservation: measure('observationOf + evaluateCheck', withObservation, checks, rounds),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { checks: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '5' } },
  });
  measureRules(countOption('checks', values.checks), countOption('rounds', values.rounds));
}
