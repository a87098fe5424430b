// Table tests of the monitor's diff and rule engine: each semantic of rules.ts on small sequences of checks.
import { describe, expect, it } from 'vitest';
import {
  defaultNoise,
  defaultWatch,
  emptyTargetState,
  type NoiseSettings,
  type Observation,
  type Rule,
  type TargetState,
  type WatchedField,
} from './model.js';
import {
  evaluateCheck,
  jstDay,
  lowsKey,
  observationOf,
  percentOf,
  recordFailure,
  ruleProblems,
  type CheckVerdict,
} from './rules.js';

const start = Date.parse('2026-11-27T00:00:00Z');
const hourly = (i: number) => new Date(start + i * 3_600_000).toISOString();

interface Run {
  rules?: Rule[];
  noise?: Partial<NoiseSettings>;
  watch?: readonly WatchedField[];
  /** ISO instants of the checks (hourly from 2026-11-27T00:00Z by default). */
  times?: string[];
  lows?: Map<string, number | null>;
  state?: TargetState;
}

/** Runs good checks in order, each on the state the previous one stored. */
function run(observations: Observation[], options: Run = {}): CheckVerdict[] {
  let state = options.state ?? emptyTargetState;
  return observations.map((observation, i) => {
    const verdict = evaluateCheck({
      watch: options.watch ?? defaultWatch,
      rules: options.rules ?? [],
      noise: { ...defaultNoise, ...options.noise },
      state,
      observation,
      at: options.times?.[i] ?? hourly(i),
      ...(options.lows ? { lows: options.lows } : {}),
    });
    state = verdict.state;
    return verdict;
  });
}

const prices = (...values: Array<number | null>): Observation[] => values.map((price) => ({ price }));
// defaultWatch fields the price-only sequences leave unstated.
const blank: Observation = { price_tax: null, points: null, shipping: null, shipping_fee: null, availability: null };
const rule = (id: string, when: Rule['when'], mode?: Rule['mode']): Rule => ({ id, when, ...(mode ? { mode } : {}) });

describe('observationOf', () => {
  const watchAll: WatchedField[] = ['price', 'points', 'shipping', 'shipping_fee', 'effective_price'];
  it.each([
    ['送料別 440円', { price: 12800, points: 128, shipping: 'extra', shipping_fee: 440 }, 13112],
    ['送料無料', { price: 12800, points: 128, shipping: 'free' }, 12672],
    ['送料込', { price: 12800, points: 0, shipping: 'included', shipping_fee: 500 }, 12800],
    ['送料別, fee unknown', { price: 12800, points: 128, shipping: 'extra' }, null],
    ['shipping unknown', { price: 12800, points: 128, shipping: 'unknown', shipping_fee: 440 }, null],
    ['shipping not stated', { price: 12800, points: 128, shipping_fee: 440 }, null],
    ['points not stated', { price: 12800, shipping: 'free' }, null],
    ['price not stated', { points: 128, shipping: 'free' }, null],
  ])('effective_price with %s', (_name, data, expected) => {
    expect(observationOf(data, watchAll).effective_price).toBe(expected);
  });

  it('returns exactly the watched fields, null where the page did not say or said it in the wrong type', () => {
    const data = {
      title: 'WH-1000XM5',
      price: '12800',
      price_tax: 'included',
      availability: 'sold',
      on_sale: true,
      points: Number.NaN,
      shipping: 'free',
    };
    expect(observationOf(data, ['price', 'price_tax', 'availability', 'on_sale', 'points', 'list_price'])).toEqual({
      price: null,
      price_tax: 'included',
      availability: null,
      on_sale: true,
      points: null,
      list_price: null,
    });
  });

  it('computes effective_price only when it is watched', () => {
    const observation = observationOf({ price: 1000, points: 10, shipping: 'free' }, ['price']);
    expect(observation).toEqual({ price: 1000 });
  });
});

describe('noise floor', () => {
  it.each([
    ['+1 yen', 1000, 1001, 1, null],
    ['−1 yen', 1000, 999, 1, null],
    ['+2 yen', 1000, 1002, 1, 2],
    ['−10 yen within a floor of 10', 1000, 990, 10, null],
    ['+1 yen with a floor of 0', 1000, 1001, 0, 1],
  ])('%s: 1000 → after', (_name, before, after, floor, delta) => {
    const [, second] = run(prices(before, after), { noise: { price_abs_yen: floor } });
    expect(second!.changes).toEqual(delta === null ? [] : [expect.objectContaining({ field: 'price', delta })]);
    expect(second!.alert).toBe(delta !== null);
  });

  it('does not let 1-yen steps drift the baseline: 1000 → 1001 → 1002 is +2 from 1000', () => {
    const verdicts = run(prices(1000, 1001, 1002, 1003));
    expect(verdicts.map((v) => v.changes.length)).toEqual([0, 0, 1, 0]);
    expect(verdicts[2]!.changes).toEqual([{ field: 'price', before: 1000, after: 1002, delta: 2, delta_pct: 0.2 }]);
    expect(verdicts[3]!.state.last?.price).toBe(1002);
  });

  it('applies the floor to points (1% points round to the point) but not to points_rate', () => {
    const watch: WatchedField[] = ['points', 'points_rate'];
    const [, second, third] = run(
      [
        { points: 128, points_rate: 1 },
        { points: 129, points_rate: 1 },
        { points: 129, points_rate: 1.5 },
      ],
      { watch },
    );
    expect(second!.changes).toEqual([]);
    expect(third!.changes).toEqual([{ field: 'points_rate', before: 1, after: 1.5, delta: 0.5, delta_pct: 50 }]);
  });
});

describe('unknown values (null)', () => {
  it('a price that goes missing is no change, and the next price is diffed against the last known one', () => {
    const verdicts = run(prices(1000, null, 1000, null, 1200));
    expect(verdicts.map((v) => v.changes)).toEqual([
      [],
      [],
      [],
      [],
      [{ field: 'price', before: 1000, after: 1200, delta: 200, delta_pct: 20 }],
    ]);
    expect(verdicts[1]!.state.last?.price).toBe(1000);
  });

  it('a first known value is taken silently, and rules on an unknown operand are skipped', () => {
    const rules = [rule('pts', { field: 'points', change_gte: 5 }), rule('cheap', { field: 'points', gte: 100 })];
    const verdicts = run(
      [
        { price: 1000, points: null },
        { price: 1000, points: 128 },
        { price: 1000, points: 140 },
      ],
      { rules, watch: ['price', 'points'] },
    );
    expect(verdicts[0]!.skippedRules).toEqual([
      { id: 'pts', reason: 'first_check' },
      { id: 'cheap', reason: 'unknown_operand' },
    ]);
    expect(verdicts[1]!.changes).toEqual([]);
    expect(verdicts[1]!.skippedRules).toEqual([{ id: 'pts', reason: 'unknown_operand' }]);
    expect(verdicts[1]!.rulesHit).toEqual(['cheap']);
    expect(verdicts[2]!.rulesHit).toEqual(['pts']);
  });
});

describe('without rules', () => {
  it('the first check is the baseline and alerts nothing; any counted change of a watched field alerts', () => {
    const verdicts = run([
      { price: 12800, availability: 'in_stock', shipping: 'free' },
      { price: 12800, availability: 'in_stock', shipping: 'free' },
      { price: 12800, availability: 'limited', shipping: 'free' },
    ]);
    expect(verdicts.map((v) => v.alert)).toEqual([false, false, true]);
    expect(verdicts[2]!.rulesHit).toEqual([]);
    expect(verdicts[2]!.changes).toEqual([{ field: 'availability', before: 'in_stock', after: 'limited' }]);
  });
});

describe('change rules', () => {
  const rules = [
    rule('drop5', { field: 'price', change_pct_lte: -5 }),
    rule('rise3', { field: 'price', change_pct_gte: 3 }),
    rule('drop500', { field: 'price', change_lte: -500 }),
    rule('pts', { field: 'points_rate', change_gte: 5 }),
  ];
  const watch: WatchedField[] = ['price', 'points', 'points_rate'];

  it('reads delta and delta_pct between two consecutive good checks', () => {
    const [first, second] = run(
      [
        { price: 12800, points: 128, points_rate: 1 },
        { price: 11800, points: 118, points_rate: 10 },
      ],
      { rules, watch },
    );
    expect(first!.skippedRules.map((s) => s.reason)).toEqual([
      'first_check',
      'first_check',
      'first_check',
      'first_check',
    ]);
    expect(first!.alert).toBe(false);
    expect(second!.changes).toEqual([
      { field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 },
      { field: 'points', before: 128, after: 118, delta: -10, delta_pct: -7.81 },
      { field: 'points_rate', before: 1, after: 10, delta: 9, delta_pct: 900 },
    ]);
    expect(second!.rulesHit).toEqual(['drop5', 'drop500', 'pts']);
    expect(second!.alert).toBe(true);
  });

  it.each([
    ['+3% exactly fires rise3', 10000, 10300, ['rise3']],
    ['−4.99% fires nothing', 10000, 9501, []],
    ['−5% exactly fires drop5', 10000, 9500, ['drop5', 'drop500']],
    ['a change within the floor fires nothing', 10000, 10001, []],
  ])('%s', (_name, before, after, hits) => {
    expect(run(prices(before, after), { rules, watch })[1]!.rulesHit).toEqual(hits);
  });

  it('with rules, a change no rule fires on is recorded but does not alert', () => {
    const [, second] = run(prices(10000, 9900), { rules, watch });
    expect(second!.changes).toHaveLength(1);
    expect(second!.alert).toBe(false);
  });

  it('has no delta_pct from 0, and a percent rule on it is skipped', () => {
    const pctRule = [rule('ptsUp', { field: 'points', change_pct_gte: 10 })];
    const [, second] = run([{ points: 0 }, { points: 50 }], { rules: pctRule, watch: ['points'] });
    expect(second!.changes).toEqual([{ field: 'points', before: 0, after: 50, delta: 50 }]);
    expect(second!.skippedRules).toEqual([{ id: 'ptsUp', reason: 'unknown_operand' }]);
  });

  it('lte in mode change fires on each counted change that lands under the bound', () => {
    const under = [rule('under', { field: 'price', lte: 30000 }, 'change')];
    const verdicts = run(prices(29000, 28000, 28000, 31000, 29500), { rules: under });
    expect(verdicts.map((v) => v.rulesHit)).toEqual([[], ['under'], [], [], ['under']]);
    expect(verdicts[0]!.skippedRules).toEqual([{ id: 'under', reason: 'first_check' }]);
  });
});

describe('tax basis', () => {
  const rules = [
    rule('drop5', { field: 'price', change_pct_lte: -5 }),
    rule('drop50', { field: 'price', change_lte: -50 }),
    rule('newlow', { field: 'price', below_lowest_days: 90 }),
    rule('under', { field: 'price', lte: 1050 }),
  ];
  const lows = new Map([[lowsKey('price', 90), 1100]]);

  it('1,100 税込 → 1,000 税抜 is a basis change: no delta, no change rule, the bound still compared', () => {
    const [, second] = run(
      [
        { price: 1100, price_tax: 'included' },
        { price: 1000, price_tax: 'excluded' },
      ],
      { rules, lows, watch: ['price', 'price_tax'] },
    );
    expect(second!.basisChanged).toBe(true);
    expect(second!.changes).toEqual([
      { field: 'price', before: 1100, after: 1000 },
      { field: 'price_tax', before: 'included', after: 'excluded' },
    ]);
    expect(second!.rulesHit).toEqual(['under']);
    expect(second!.skippedRules).toEqual([
      { id: 'drop5', reason: 'tax_basis_changed' },
      { id: 'drop50', reason: 'tax_basis_changed' },
      { id: 'newlow', reason: 'tax_basis_changed' },
    ]);
    expect(second!.state.last).toEqual({ price: 1000, price_tax: 'excluded' });
  });

  it('unknown on one side is no basis: the price change counts as usual', () => {
    const [, second] = run(
      [
        { price: 1100, price_tax: 'included' },
        { price: 1000, price_tax: 'unknown' },
      ],
      { rules, lows, watch: ['price', 'price_tax'] },
    );
    expect(second!.basisChanged).toBe(false);
    expect(second!.changes[0]).toEqual({ field: 'price', before: 1100, after: 1000, delta: -100, delta_pct: -9.09 });
    expect(second!.rulesHit).toEqual(['drop5', 'drop50', 'newlow', 'under']);
  });

  it('leaves shipping_fee deltas alone across a basis change', () => {
    const [, second] = run(
      [
        { price: 1100, price_tax: 'included', shipping_fee: 440 },
        { price: 1000, price_tax: 'excluded', shipping_fee: 550 },
      ],
      { watch: ['price', 'price_tax', 'shipping_fee'] },
    );
    expect(second!.changes[2]).toEqual({ field: 'shipping_fee', before: 440, after: 550, delta: 110, delta_pct: 25 });
  });
});

describe('availability transitions', () => {
  const rules = [
    rule('restock', { field: 'availability', from: ['out_of_stock', 'discontinued'], to: ['in_stock', 'limited'] }),
    rule('lowStock', { field: 'availability', from: ['in_stock'], to: ['limited'] }),
    rule('released', { field: 'availability', from: ['preorder'], to: ['in_stock'] }),
    rule('ended', { field: 'availability', to: ['discontinued'] }),
    rule('soldOut', { field: 'availability', to: ['out_of_stock'] }),
    rule('leftPreorder', { field: 'availability', from: ['preorder'] }),
  ];
  it.each([
    ['restock', 'out_of_stock', 'in_stock', ['restock']],
    ['残りわずか', 'in_stock', 'limited', ['lowStock']],
    ['予約 → 発売', 'preorder', 'in_stock', ['released', 'leftPreorder']],
    ['販売終了', 'in_stock', 'discontinued', ['ended']],
    ['売り切れ', 'limited', 'out_of_stock', ['soldOut']],
    ['復活 from discontinued to limited', 'discontinued', 'limited', ['restock']],
    ['no transition', 'in_stock', 'in_stock', []],
  ])('%s: %s → %s', (_name, before, after, hits) => {
    const observations = [{ availability: before }, { availability: after }];
    expect(run(observations, { rules, watch: ['availability'] })[1]!.rulesHit).toEqual(hits);
  });

  it('on_sale transitions are written "true"/"false"', () => {
    const sale = [rule('saleStarts', { field: 'on_sale', from: ['false'], to: ['true'] })];
    const verdicts = run([{ on_sale: false }, { on_sale: true }, { on_sale: false }], {
      rules: sale,
      watch: ['on_sale'],
    });
    expect(verdicts.map((v) => v.rulesHit)).toEqual([[], ['saleStarts'], []]);
  });
});

describe('enter rules (lte/gte)', () => {
  const rules = [rule('under30k', { field: 'price', lte: 30000 })];

  it('fires once on entering and re-arms only after a check outside', () => {
    const verdicts = run(prices(31000, 29000, 28000, 29500, 31000, 29000), { rules });
    expect(verdicts.map((v) => v.rulesHit)).toEqual([[], ['under30k'], [], [], [], ['under30k']]);
    expect(verdicts.map((v) => v.state.inside)).toEqual([
      [],
      ['under30k'],
      ['under30k'],
      ['under30k'],
      [],
      ['under30k'],
    ]);
  });

  it('fires on the first good check when the condition already holds', () => {
    const [first] = run(prices(29000), { rules });
    expect(first!.rulesHit).toEqual(['under30k']);
    expect(first!.alert).toBe(true);
  });

  it('gte fires on reaching the bound', () => {
    const over = [rule('over', { field: 'price', gte: 1200 })];
    expect(run(prices(1000, 1200, 1300), { rules: over }).map((v) => v.rulesHit)).toEqual([[], ['over'], []]);
  });

  it('compares the value after the noise floor, so a flap around the bound neither enters nor leaves', () => {
    const verdicts = run(prices(30001, 30000, 30001, 29999, 30000, 30001), { rules });
    expect(verdicts.map((v) => v.rulesHit)).toEqual([[], [], [], ['under30k'], [], []]);
  });

  it('keeps its state through an unknown operand', () => {
    const verdicts = run(prices(29000, null, 29000), { rules });
    expect(verdicts.map((v) => v.rulesHit)).toEqual([['under30k'], [], []]);
    expect(verdicts[1]!.skippedRules).toEqual([{ id: 'under30k', reason: 'unknown_operand' }]);
    expect(verdicts[1]!.state.inside).toEqual(['under30k']);
  });

  it('forgets a removed rule', () => {
    const state: TargetState = { ...emptyTargetState, last: { price: 29000 }, inside: ['gone', 'under30k'] };
    expect(run(prices(29000), { rules, state })[0]!.state.inside).toEqual(['under30k']);
  });
});

describe('below_lowest_days', () => {
  const rules = [rule('newlow', { field: 'price', below_lowest_days: 90 })];
  it.each([
    ['under the low fires', 990, 1000, ['newlow'], []],
    ['at the low does not', 1000, 1000, [], []],
    ['a drop still above the low does not', 995, 990, [], []],
    ['without history it is skipped', 900, null, [], [{ id: 'newlow', reason: 'no_history' }]],
  ])('%s', (_name, after, low, hits, skipped) => {
    const lows = new Map([[lowsKey('price', 90), low]]);
    const [, second] = run(prices(1100, after), { rules, lows });
    expect(second!.rulesHit).toEqual(hits);
    expect(second!.skippedRules).toEqual(skipped);
  });

  it('is skipped when no lows are given at all, and as first_check on the first check', () => {
    const verdicts = run(prices(1100, 900), { rules });
    expect(verdicts.map((v) => v.skippedRules[0]?.reason)).toEqual(['first_check', 'no_history']);
  });
});

describe('confirm_checks', () => {
  const noise = { confirm_checks: 2 };

  it('a one-check blip that returns to the baseline never counts', () => {
    const verdicts = run(prices(1000, 900, 1000, 1000), { noise });
    expect(verdicts.map((v) => v.alert)).toEqual([false, false, false, false]);
    expect(verdicts.map((v) => v.baselineMoved)).toEqual([true, false, true, true]);
    expect(verdicts[1]!.state.pending).toEqual({ observation: { ...blank, price: 900 }, seen: 1 });
    expect(verdicts[2]!.state.pending).toBeNull();
    expect(verdicts[3]!.state.last?.price).toBe(1000);
  });

  it('a new value seen twice in a row becomes the baseline and is reported from the old one', () => {
    const verdicts = run(prices(1000, 900, 900), { noise });
    expect(verdicts.map((v) => v.changes)).toEqual([
      [],
      [],
      [{ field: 'price', before: 1000, after: 900, delta: -100, delta_pct: -10 }],
    ]);
    expect(verdicts.map((v) => v.alert)).toEqual([false, false, true]);
    expect(verdicts[2]!.state.lastAt).toBe(hourly(2));
    expect(verdicts[1]!.state.lastAt).toBe(hourly(0));
  });

  it('two different new values restart the wait; an unstated waiting field does not confirm it', () => {
    expect(run(prices(1000, 900, 800, 800), { noise }).map((v) => v.alert)).toEqual([false, false, false, true]);
    expect(run(prices(1000, 900, null, 900), { noise }).map((v) => v.alert)).toEqual([false, false, false, false]);
  });

  it('holds an enter rule until the value is confirmed', () => {
    const rules = [rule('under', { field: 'price', lte: 950 })];
    const verdicts = run(prices(1000, 900, 1000, 900, 900), { noise, rules });
    expect(verdicts.map((v) => v.rulesHit)).toEqual([[], [], [], [], ['under']]);
  });
});

describe('cooldown and max_alerts_per_day', () => {
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

  it('holds alerts back for cooldown_minutes after the last one, still moving the baseline', () => {
    const verdicts = run(prices(1000, 900, 800, 700), {
      noise: { cooldown_minutes: 60 },
      times: [at(0), at(10), at(40), at(70)],
    });
    expect(verdicts.map((v) => [v.alert, v.suppressed])).toEqual([
      [false, null],
      [true, null],
      [false, 'cooldown'],
      [true, null],
    ]);
    expect(verdicts[2]!.changes).toEqual([{ field: 'price', before: 900, after: 800, delta: -100, delta_pct: -11.11 }]);
    expect(verdicts[3]!.changes[0]).toMatchObject({ before: 800, after: 700 });
    expect(verdicts[2]!.state.lastAlertAt).toBe(at(10));
  });

  it('allows an alert exactly cooldown_minutes after the last one', () => {
    const verdicts = run(prices(1000, 900, 800), { noise: { cooldown_minutes: 60 }, times: [at(0), at(1), at(61)] });
    expect(verdicts.map((v) => v.alert)).toEqual([false, true, true]);
  });

  it('keeps a suppressed enter rule armed: it fires once the cooldown is over if still inside', () => {
    const rules = [rule('drop', { field: 'price', change_lte: -50 }), rule('under', { field: 'price', lte: 850 })];
    const verdicts = run(prices(1000, 900, 800, 800), {
      rules,
      noise: { cooldown_minutes: 60 },
      times: [at(0), at(10), at(20), at(80)],
    });
    expect(verdicts.map((v) => [v.rulesHit, v.alert, v.suppressed])).toEqual([
      [[], false, null],
      [['drop'], true, null],
      [['drop', 'under'], false, 'cooldown'],
      [['under'], true, null],
    ]);
    expect(verdicts[3]!.changes).toEqual([]);
  });

  it('counts alerts per JST day: the cap resets at 15:00 UTC', () => {
    const times = ['2026-11-27T13:00:00Z', '2026-11-27T13:30:00Z', '2026-11-27T14:00:00Z', '2026-11-27T14:59:59Z'];
    times.push('2026-11-27T15:00:00Z', '2026-11-27T15:30:00Z');
    const verdicts = run(prices(1000, 900, 800, 700, 600, 500), { noise: { max_alerts_per_day: 2 }, times });
    expect(verdicts.map((v) => v.suppressed)).toEqual([null, null, null, 'max_per_day', null, null]);
    expect(verdicts.map((v) => v.alert)).toEqual([false, true, true, false, true, true]);
    expect(verdicts.map((v) => [v.state.alertsDay, v.state.alertsThatDay])).toEqual([
      [null, 0],
      ['2026-11-27', 1],
      ['2026-11-27', 2],
      ['2026-11-27', 2],
      ['2026-11-28', 1],
      ['2026-11-28', 2],
    ]);
    expect(verdicts[3]!.state.last?.price).toBe(700);
  });

  it('reads JST dates across the day line', () => {
    expect([
      jstDay('2026-11-27T14:59:59.999Z'),
      jstDay('2026-11-27T15:00:00Z'),
      jstDay('2026-12-31T23:00:00+09:00'),
    ]).toEqual(['2026-11-27', '2026-11-28', '2026-12-31']);
  });
});

describe('failures', () => {
  it('1000, three failures, 1000: no change, and the failure alert once at the third', () => {
    let state = run(prices(1000))[0]!.state;
    const alerts: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const failed = recordFailure(state, 3);
      alerts.push(failed.alertFailed);
      expect(failed.state.last).toBe(state.last);
      state = failed.state;
    }
    expect(alerts).toEqual([false, false, true]);
    expect(state.failuresInARow).toBe(3);
    const [after] = run(prices(1000), { state });
    expect(after!.changes).toEqual([]);
    expect(after!.alert).toBe(false);
    expect(after!.state.failuresInARow).toBe(0);
  });

  it('alerts once per run of failures, and again on the next run', () => {
    let state: TargetState = emptyTargetState;
    const alerts: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const failed = recordFailure(state, 3);
      alerts.push(failed.alertFailed);
      state = failed.state;
    }
    state = run(prices(1000), { state })[0]!.state;
    for (let i = 0; i < 3; i++) {
      const failed = recordFailure(state, 3);
      alerts.push(failed.alertFailed);
      state = failed.state;
    }
    expect(alerts).toEqual([false, false, true, false, false, false, false, true]);
  });

  it('leaves the rule state and the pending confirmation alone', () => {
    const state: TargetState = {
      ...emptyTargetState,
      last: { price: 1000 },
      pending: { observation: { price: 900 }, seen: 1 },
      inside: ['under'],
      failuresInARow: 0,
    };
    expect(recordFailure(state, 3).state).toEqual({ ...state, failuresInARow: 1 });
  });
});

describe('percentOf', () => {
  it.each([
    [-1000, 12800, -7.81],
    [1, 8, 12.5],
    [1, 200, 0.5],
    [-1, 200, -0.5],
    [1, 80000, 0],
    [-1, 80000, 0],
    [-1, 20000, -0.01],
    [1, 20000, 0.01],
    [1, 3, 33.33],
    [2, 3, 66.67],
  ])('%d of %d is %d%%', (delta, before, expected) => {
    expect(Object.is(percentOf(delta, before), expected)).toBe(true);
  });
});

describe('ruleProblems', () => {
  it('accepts the research example rules', () => {
    const rules = [
      { id: 'drop5', when: { field: 'price', change_pct_lte: -5 } },
      { id: 'rise3', when: { field: 'price', change_pct_gte: 3 } },
      { id: 'under30k', when: { field: 'effective_price', lte: 30000 }, mode: 'enter' },
      { id: 'newlow', when: { field: 'price', below_lowest_days: 90 } },
      {
        id: 'restock',
        when: { field: 'availability', from: ['out_of_stock', 'discontinued'], to: ['in_stock', 'limited'] },
      },
      { id: 'pts', when: { field: 'points_rate', change_gte: 5 } },
      { id: 'sale_on', when: { field: 'on_sale', to: ['true'] } },
      { id: 'tax', when: { field: 'price_tax', from: ['included'], to: ['excluded'] } },
      { id: 'ship', when: { field: 'shipping', to: ['free'] }, mode: 'change' },
    ];
    expect(ruleProblems(rules)).toEqual([]);
  });

  it.each([
    ['not an object', 'drop5', 'must be an object'],
    ['no operator', { id: 'a', when: { field: 'price' } }, 'needs one operator'],
    ['two operators', { id: 'a', when: { field: 'price', lte: 1, gte: 2 } }, 'has 2 operators (lte, gte)'],
    ['from/to with another', { id: 'a', when: { field: 'price', lte: 1, to: ['x'] } }, 'has 2 operators'],
    ['unknown field', { id: 'a', when: { field: 'title', lte: 1 } }, 'when.field must be one of'],
    ['numeric op on enum', { id: 'a', when: { field: 'availability', lte: 1 } }, 'lte works on numeric fields'],
    ['from/to on a number', { id: 'a', when: { field: 'price', to: ['1000'] } }, 'from/to works on'],
    ['on_sale with a number', { id: 'a', when: { field: 'on_sale', change_gte: 1 } }, 'works on numeric fields'],
    ['on_sale value', { id: 'a', when: { field: 'on_sale', to: [true] } }, 'true is not a value of on_sale'],
    ['availability value', { id: 'a', when: { field: 'availability', to: ['sold'] } }, '"sold" is not a value'],
    ['empty to', { id: 'a', when: { field: 'availability', to: [] } }, 'when.to must be a non-empty list'],
    ['days 0', { id: 'a', when: { field: 'price', below_lowest_days: 0 } }, 'from 1 to 365'],
    ['days 366', { id: 'a', when: { field: 'price', below_lowest_days: 366 } }, 'from 1 to 365'],
    ['days 1.5', { id: 'a', when: { field: 'price', below_lowest_days: 1.5 } }, 'from 1 to 365'],
    ['infinite', { id: 'a', when: { field: 'price', lte: Infinity } }, 'lte must be a finite number'],
    ['NaN', { id: 'a', when: { field: 'price', change_gte: NaN } }, 'change_gte must be a finite number'],
    ['string number', { id: 'a', when: { field: 'price', lte: '100' } }, 'lte must be a finite number'],
    ['empty id', { id: '', when: { field: 'price', lte: 1 } }, 'id must be 1–64'],
    ['long id', { id: 'x'.repeat(65), when: { field: 'price', lte: 1 } }, 'id must be 1–64'],
    ['id with a space', { id: 'a b', when: { field: 'price', lte: 1 } }, 'id must be 1–64'],
    ['enter on a change', { id: 'a', when: { field: 'price', change_lte: -1 }, mode: 'enter' }, 'mode "enter" is for'],
    ['bad mode', { id: 'a', when: { field: 'price', lte: 1 }, mode: 'always' }, 'mode must be'],
    ['unknown rule key', { id: 'a', when: { field: 'price', lte: 1 }, note: 'x' }, 'unknown key "note"'],
    ['unknown when key', { id: 'a', when: { field: 'price', lt: 1 } }, 'when: unknown key "lt"'],
    ['no when', { id: 'a' }, 'when must be an object'],
  ])('%s', (_name, rule, problem) => {
    const problems = ruleProblems([rule]);
    expect(problems.some((p) => p.includes(problem))).toBe(true);
  });

  it('reports duplicate ids, and names the rule that had the id first', () => {
    const rules = [
      { id: 'a', when: { field: 'price', lte: 1 } },
      { id: 'b', when: { field: 'price', lte: 1 } },
      { id: 'a', when: { field: 'price', gte: 1 } },
    ];
    expect(ruleProblems(rules)).toEqual(['rules[2].id "a" is already the id of rules[0]']);
  });

  it('with the watch list, reports a rule on an unwatched field', () => {
    const rules = [{ id: 'a', when: { field: 'points_rate', gte: 10 } }];
    expect(ruleProblems(rules, defaultWatch)).toEqual([
      'rules[0]: "points_rate" is not watched by this monitor (add it to watch)',
    ]);
    expect(ruleProblems(rules, [...defaultWatch, 'points_rate'])).toEqual([]);
  });
});
