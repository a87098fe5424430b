// Monitor events (DESIGN §9) as short human messages, Japanese or English, for Slack, ChatWork and LINE.
import type { Availability, FieldChange, FieldValue, MonitorEventType, Observation, WatchedField } from './model.js';
import { yenFields } from './model.js';

/** `monitor.alert`'s `data`: what changed on one target between two consecutive good checks. */
export interface MonitorAlertData {
  monitor_id: string;
  monitor_name: string | null;
  check_id: string;
  target_id: string;
  ref: string | null;
  url: string;
  site: string;
  observed_at: string;
  previous_at: string | null;
  rules_hit: string[];
  changes: FieldChange[];
  current: Observation;
  request_id: string | null;
  cost_units: number;
}

/** `monitor.check.failed`'s `data`: a target failed this many checks in a row (its last good values are kept). */
export interface MonitorCheckFailedData {
  monitor_id: string;
  monitor_name: string | null;
  target_id: string;
  ref: string | null;
  url: string;
  site: string;
  failures_in_a_row: number;
  error: { code: string; status: number };
  observed_at: string;
}

/** `monitor.target.removed`'s `data`: the page itself answered 404 or 410 (not a failure of ours). */
export interface MonitorTargetRemovedData {
  monitor_id: string;
  monitor_name: string | null;
  target_id: string;
  ref: string | null;
  url: string;
  site: string;
  status: 404 | 410;
  observed_at: string;
}

/** `monitor.paused`'s `data`: the monitor stopped rather than overrun its monthly credits. */
export interface MonitorPausedData {
  monitor_id: string;
  monitor_name: string | null;
  reason: 'max_credits_per_month';
  credits_this_month: number;
  max_credits_per_month: number;
  at: string;
}

export interface MonitorEventDataByType {
  'monitor.alert': MonitorAlertData;
  'monitor.check.failed': MonitorCheckFailedData;
  'monitor.target.removed': MonitorTargetRemovedData;
  'monitor.paused': MonitorPausedData;
}

export type MessageLanguage = 'ja' | 'en';
export const messageLanguages: readonly MessageLanguage[] = ['ja', 'en'];

/** A rendered event: the title (one line) and the body text (lines, no title); each channel lays them out. */
export interface RenderedMessage {
  title: string;
  text: string;
}

/** U+2212, as Japanese price tables print a minus (the research's form: −7.8%), never an ASCII hyphen. */
const minus = '\u2212';

/** Whole yen as people write it: `¥12,800`, `−¥1,000` (rounded: yen fields are integers already). */
export function formatYen(n: number): string {
  const yen = Math.round(n);
  return `${yen < 0 ? minus : ''}¥${grouped(Math.abs(yen))}`;
}

/** The message for one event, in the monitor's language (Japanese unless it asked for English). */
export function renderMessage<T extends MonitorEventType>(
  type: T,
  data: MonitorEventDataByType[T],
  language: MessageLanguage = 'ja',
): RenderedMessage {
  const render: (data: MonitorEventDataByType[T], w: Words) => RenderedMessage = renderers[type];
  return render(data, wordsOf(language));
}

/** One watched value as the messages write it (`¥12,800`, `在庫切れ`, `118pt`): the console shows the same words. */
export function formatValue(
  field: WatchedField,
  value: FieldValue | undefined,
  language: MessageLanguage = 'ja',
): string {
  return valueText(field, value, wordsOf(language));
}

/** One change as a message line writes it: `価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）`. */
export function formatChange(change: FieldChange, language: MessageLanguage = 'ja'): string {
  return changeLine(change, wordsOf(language));
}

/** A watched field's name as the messages write it (`価格`, `Price`). */
export function fieldName(field: WatchedField, language: MessageLanguage = 'ja'): string {
  return wordsOf(language).fields[field];
}

function wordsOf(language: MessageLanguage): Words {
  return language === 'en' ? en : ja;
}

const renderers: { [K in MonitorEventType]: (data: MonitorEventDataByType[K], w: Words) => RenderedMessage } = {
  'monitor.alert': renderAlert,
  'monitor.check.failed': renderCheckFailed,
  'monitor.target.removed': renderTargetRemoved,
  'monitor.paused': renderPaused,
};

type Tag =
  | 'restock'
  | 'out_of_stock'
  | 'discontinued'
  | 'preorder'
  | 'low_stock'
  | 'backorder'
  | 'price_drop'
  | 'price_rise'
  | 'effective_drop'
  | 'effective_rise'
  | 'points_up'
  | 'points_down'
  | 'tax_basis'
  | 'shipping'
  | 'sale_start'
  | 'sale_end'
  | 'change';

type PriceTax = 'included' | 'excluded' | 'unknown';
type Shipping = 'free' | 'included' | 'extra' | 'unknown';

interface Words {
  /** A title from the event's kinds (one or two) and what it is about. */
  title(kinds: string[], subject: string): string;
  tags: Record<Tag, string>;
  checkFailed: string;
  targetRemoved: string;
  paused: string;
  fields: Record<WatchedField, string>;
  availability: Record<Availability, string>;
  priceTax: Record<PriceTax, string>;
  /** How `price` reads with its tax basis (nothing added when the page did not say). */
  taxNote: Record<PriceTax, string>;
  shipping: Record<Shipping, string>;
  shippingFee(fee: string): string;
  extraShippingFee(fee: string): string;
  onSale: { true: string; false: string };
  unknown: string;
  points(n: number): string;
  /** A yen change as written beside a price (ja `−1,000円`, en `−¥1,000`). */
  yenDelta(delta: number): string;
  /** Parenthesised aside after a value: full-width in Japanese. */
  aside(parts: string[]): string;
  label(name: string, value: string): string;
  now: string;
  effective(price: string): string;
  rules: string;
  ref: string;
  monitor: string;
  time(iso: string): string;
  checked(at: string, previous: string | null): string;
  failed(n: number, code: string, status: number): string[];
  removed(status: 404 | 410): string;
  pausedText(used: number, max: number): string;
  pausedAt: string;
}

const ja: Words = {
  title: (kinds, subject) => `【${kinds.join('・')}】${subject}`,
  tags: {
    restock: '在庫復活',
    out_of_stock: '在庫切れ',
    discontinued: '販売終了',
    preorder: '予約開始',
    low_stock: '残りわずか',
    backorder: '取り寄せ',
    price_drop: '値下がり',
    price_rise: '値上がり',
    effective_drop: '実質値下がり',
    effective_rise: '実質値上がり',
    points_up: 'ポイントアップ',
    points_down: 'ポイントダウン',
    tax_basis: '税表示変更',
    shipping: '送料変更',
    sale_start: 'セール開始',
    sale_end: 'セール終了',
    change: '変更',
  },
  checkFailed: 'チェック失敗',
  targetRemoved: 'ページ削除',
  paused: '監視停止',
  fields: {
    price: '価格',
    price_tax: '税表示',
    price_excluding_tax: '税抜価格',
    list_price: '定価',
    points: 'ポイント',
    points_rate: 'ポイント還元率',
    shipping: '送料',
    shipping_fee: '送料額',
    availability: '在庫',
    on_sale: 'セール',
    effective_price: '実質価格',
  },
  availability: {
    in_stock: '在庫あり',
    out_of_stock: '在庫切れ',
    limited: '残りわずか',
    preorder: '予約受付中',
    backorder: '取り寄せ',
    discontinued: '販売終了',
  },
  priceTax: { included: '税込', excluded: '税抜', unknown: '表示なし' },
  taxNote: { included: '（税込）', excluded: '（税抜）', unknown: '' },
  shipping: { free: '送料無料', included: '送料込', extra: '送料別', unknown: '送料不明' },
  shippingFee: (fee) => `送料 ${fee}`,
  extraShippingFee: (fee) => `送料別（+${fee}）`,
  onSale: { true: 'セール中', false: 'セールなし' },
  unknown: '不明',
  points: (n) => `${grouped(n)}pt`,
  yenDelta: (delta) => `${signOf(delta)}${grouped(Math.abs(Math.round(delta)))}円`,
  aside: (parts) => `（${parts.join(', ')}）`,
  label: (name, value) => `${name}: ${value}`,
  now: '現在',
  effective: (price) => `実質 ${price}`,
  rules: 'ルール',
  ref: '参照',
  monitor: '監視',
  time: (iso) => jst(iso, (d) => `${d.y}/${d.mo}/${d.d} ${d.h}:${d.mi}`),
  checked: (at, previous) => `確認: ${at}${previous === null ? '' : `（前回 ${previous}）`}`,
  failed: (n, code, status) => [
    `${n === 1 ? '' : `${n}回連続で`}チェックに失敗しました（エラー: ${code} / ${status}）。`,
    '最後に取得できた値はそのまま保持しています（失敗は変更として扱いません）。',
  ],
  removed: (status) =>
    status === 410
      ? 'ページは削除されました（HTTP 410）。'
      : 'ページが見つかりません（HTTP 404）。削除されたか、URLが変わった可能性があります。',
  pausedText: (used, max) =>
    `今月の使用クレジット（${grouped(used)}）が上限（max_credits_per_month: ${grouped(max)}）に達したため、` +
    '監視を一時停止しました。',
  pausedAt: '停止',
};

const en: Words = {
  title: (kinds, subject) => `${capitalised(kinds.join(', '))}: ${subject}`,
  tags: {
    restock: 'back in stock',
    out_of_stock: 'out of stock',
    discontinued: 'discontinued',
    preorder: 'pre-order open',
    low_stock: 'low stock',
    backorder: 'backorder',
    price_drop: 'price drop',
    price_rise: 'price rise',
    effective_drop: 'effective price drop',
    effective_rise: 'effective price rise',
    points_up: 'points up',
    points_down: 'points down',
    tax_basis: 'tax basis change',
    shipping: 'shipping change',
    sale_start: 'sale started',
    sale_end: 'sale ended',
    change: 'change',
  },
  checkFailed: 'Check failed',
  targetRemoved: 'Page removed',
  paused: 'Monitor paused',
  fields: {
    price: 'Price',
    price_tax: 'Tax basis',
    price_excluding_tax: 'Price excl. tax',
    list_price: 'List price',
    points: 'Points',
    points_rate: 'Points rate',
    shipping: 'Shipping',
    shipping_fee: 'Shipping fee',
    availability: 'Availability',
    on_sale: 'On sale',
    effective_price: 'Effective price',
  },
  availability: {
    in_stock: 'In stock',
    out_of_stock: 'Out of stock',
    limited: 'Only a few left',
    preorder: 'Pre-order',
    backorder: 'Backorder',
    discontinued: 'Discontinued',
  },
  priceTax: { included: 'tax included', excluded: 'tax excluded', unknown: 'not stated' },
  taxNote: { included: ' (tax incl.)', excluded: ' (tax excl.)', unknown: '' },
  shipping: {
    free: 'Free shipping',
    included: 'Shipping included',
    extra: 'Shipping extra',
    unknown: 'Shipping unknown',
  },
  shippingFee: (fee) => `Shipping ${fee}`,
  extraShippingFee: (fee) => `Shipping +${fee}`,
  onSale: { true: 'On sale', false: 'Not on sale' },
  unknown: 'unknown',
  points: (n) => `${grouped(n)} ${Math.abs(n) === 1 ? 'pt' : 'pts'}`,
  yenDelta: (delta) => `${signOf(delta)}¥${grouped(Math.abs(Math.round(delta)))}`,
  aside: (parts) => ` (${parts.join(', ')})`,
  label: (name, value) => `${name}: ${value}`,
  now: 'Now',
  effective: (price) => `effective ${price}`,
  rules: 'Rules',
  ref: 'Ref',
  monitor: 'Monitor',
  time: (iso) => jst(iso, (d) => `${d.y}-${d.mo}-${d.d} ${d.h}:${d.mi} JST`),
  checked: (at, previous) => `Checked: ${at}${previous === null ? '' : ` (previous ${previous})`}`,
  failed: (n, code, status) => [
    `${n === 1 ? 'A check' : `${n} checks in a row`} failed (error: ${code} / ${status}).`,
    'The last good values are kept (a failure is never reported as a change).',
  ],
  removed: (status) =>
    status === 410
      ? 'The page has been removed (HTTP 410).'
      : 'The page was not found (HTTP 404): it may have been removed or moved.',
  pausedText: (used, max) =>
    `The monitor is paused: it used ${grouped(used)} credits this month, its limit ` +
    `(max_credits_per_month) is ${grouped(max)}.`,
  pausedAt: 'Paused',
};

function renderAlert(data: MonitorAlertData, w: Words): RenderedMessage {
  const lines = data.changes.map((change) => changeLine(change, w));
  const now = currentLine(data.current, w);
  if (now !== null) lines.push(now);
  if (data.rules_hit.length > 0) lines.push(w.label(w.rules, data.rules_hit.map(oneLine).join(', ')));
  lines.push(...aboutLines(data, w));
  lines.push(w.checked(w.time(data.observed_at), data.previous_at === null ? null : w.time(data.previous_at)));
  lines.push(data.url);
  const kinds = tagsOf(data.changes).map((tag) => w.tags[tag]);
  return { title: w.title(kinds, subjectOf(data)), text: lines.join('\n') };
}

function renderCheckFailed(data: MonitorCheckFailedData, w: Words): RenderedMessage {
  const lines = [
    ...w.failed(data.failures_in_a_row, oneLine(data.error.code), data.error.status),
    ...aboutLines(data, w),
    w.checked(w.time(data.observed_at), null),
    data.url,
  ];
  return { title: w.title([w.checkFailed], subjectOf(data)), text: lines.join('\n') };
}

function renderTargetRemoved(data: MonitorTargetRemovedData, w: Words): RenderedMessage {
  const lines = [w.removed(data.status), ...aboutLines(data, w), w.checked(w.time(data.observed_at), null), data.url];
  return { title: w.title([w.targetRemoved], subjectOf(data)), text: lines.join('\n') };
}

function renderPaused(data: MonitorPausedData, w: Words): RenderedMessage {
  const lines = [
    w.pausedText(data.credits_this_month, data.max_credits_per_month),
    w.label(w.monitor, monitorText(data, w)),
    w.label(w.pausedAt, w.time(data.at)),
  ];
  const subject = data.monitor_name === null ? data.monitor_id : oneLine(data.monitor_name);
  return { title: w.title([w.paused], subject), text: lines.join('\n') };
}

type TargetEvent = Pick<MonitorAlertData, 'monitor_id' | 'monitor_name' | 'ref' | 'url'>;

/** What a target's event is about: the monitor's name, else the caller's ref, else the page's host. */
function subjectOf(data: TargetEvent): string {
  if (data.monitor_name !== null) return oneLine(data.monitor_name);
  if (data.ref !== null) return oneLine(data.ref);
  try {
    return new URL(data.url).host;
  } catch {
    return data.url;
  }
}

function aboutLines(data: TargetEvent, w: Words): string[] {
  const lines: string[] = [];
  if (data.ref !== null) lines.push(w.label(w.ref, oneLine(data.ref)));
  lines.push(w.label(w.monitor, monitorText(data, w)));
  return lines;
}

function monitorText(data: Pick<MonitorAlertData, 'monitor_id' | 'monitor_name'>, w: Words): string {
  return data.monitor_name === null ? data.monitor_id : oneLine(data.monitor_name) + w.aside([data.monitor_id]);
}

/** `価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）`: before, after and, for yen and points, the change. */
function changeLine(change: FieldChange, w: Words): string {
  const { field } = change;
  let aside = '';
  if (change.delta !== undefined && change.delta !== 0) {
    if (yenFields.includes(field)) {
      const parts = [w.yenDelta(change.delta)];
      if (change.delta_pct !== undefined) parts.push(percent(change.delta_pct));
      aside = w.aside(parts);
    } else if (field === 'points') {
      aside = w.aside([`${signOf(change.delta)}${w.points(Math.abs(change.delta))}`]);
    }
  }
  return w.label(
    w.fields[field],
    `${valueText(field, change.before, w)} → ${valueText(field, change.after, w)}${aside}`,
  );
}

/** `現在: ¥11,800（税込） / 118pt（1%） / 送料無料 / 在庫あり / 実質 ¥11,682`: what the page says now. */
function currentLine(current: Observation, w: Words): string | null {
  const parts: string[] = [];
  const { price, price_tax, points, points_rate, shipping, shipping_fee, availability, on_sale, effective_price } =
    current;
  if (typeof price === 'number') parts.push(formatYen(price) + (isPriceTax(price_tax) ? w.taxNote[price_tax] : ''));
  if (typeof points === 'number') {
    parts.push(w.points(points) + (typeof points_rate === 'number' ? w.aside([`${points_rate}%`]) : ''));
  } else if (typeof points_rate === 'number') {
    parts.push(w.label(w.fields.points_rate, `${points_rate}%`));
  }
  const fee = typeof shipping_fee === 'number' ? formatYen(shipping_fee) : null;
  if (shipping === 'extra' && fee !== null) parts.push(w.extraShippingFee(fee));
  else if (isShipping(shipping) && shipping !== 'unknown') parts.push(w.shipping[shipping]);
  else if (fee !== null) parts.push(w.shippingFee(fee));
  if (typeof availability === 'string') parts.push(valueText('availability', availability, w));
  if (on_sale === true) parts.push(w.onSale.true);
  if (typeof effective_price === 'number') parts.push(w.effective(formatYen(effective_price)));
  return parts.length === 0 ? null : w.label(w.now, parts.join(' / '));
}

function valueText(field: WatchedField, value: FieldValue | undefined, w: Words): string {
  if (value === null || value === undefined) return w.unknown;
  if (typeof value === 'number') {
    if (yenFields.includes(field)) return formatYen(value);
    if (field === 'points') return w.points(value);
    if (field === 'points_rate') return `${value}%`;
    return String(value);
  }
  if (typeof value === 'boolean') return field === 'on_sale' ? w.onSale[value ? 'true' : 'false'] : String(value);
  if (field === 'availability' && isAvailability(value)) return w.availability[value];
  if (field === 'price_tax' && isPriceTax(value)) return w.priceTax[value];
  if (field === 'shipping' && isShipping(value)) return w.shipping[value];
  return oneLine(value);
}

const inStock: readonly FieldValue[] = ['in_stock', 'limited'];

/**
 * The event's kinds for its title, at most two: an availability transition, then the first of the price, what it
 * costs in the end, the points, shipping and a sale.
 */
function tagsOf(changes: readonly FieldChange[]): Tag[] {
  const tags: Tag[] = [];
  const of = (field: WatchedField) => changes.find((change) => change.field === field);
  const availability = of('availability');
  if (availability) {
    const { before, after } = availability;
    if (inStock.includes(after) && typeof before === 'string' && !inStock.includes(before)) tags.push('restock');
    else if (after === 'limited') tags.push('low_stock');
    else if (after === 'out_of_stock') tags.push('out_of_stock');
    else if (after === 'discontinued') tags.push('discontinued');
    else if (after === 'preorder') tags.push('preorder');
    else if (after === 'backorder') tags.push('backorder');
  }
  // One more at most, the first that applies: points move with the price, and a title with all of it is a sentence.
  const direction = (field: WatchedField, down: Tag, up: Tag): Tag | null => {
    const delta = of(field)?.delta;
    return delta === undefined || delta === 0 ? null : delta < 0 ? down : up;
  };
  const sale = of('on_sale');
  // 税込 → 税抜 reads as a drop that is not one (Kumo never converts a basis): the title says the basis changed.
  const basis = of('price_tax') ? 'tax_basis' : null;
  const next =
    basis ??
    direction('price', 'price_drop', 'price_rise') ??
    direction('effective_price', 'effective_drop', 'effective_rise') ??
    direction('points', 'points_down', 'points_up') ??
    direction('points_rate', 'points_down', 'points_up') ??
    (of('shipping') || of('shipping_fee') ? 'shipping' : null) ??
    (sale && typeof sale.after === 'boolean' ? (sale.after ? 'sale_start' : 'sale_end') : null);
  if (next !== null) tags.push(next);
  return tags.length === 0 ? ['change'] : tags;
}

function percent(pct: number): string {
  // One decimal as people quote a discount; a change under 0.05 % keeps two so it does not read as 0.0 %.
  const digits = Math.abs(pct) < 0.05 ? 2 : 1;
  return `${signOf(pct)}${Math.abs(pct).toFixed(digits)}%`;
}

function signOf(n: number): string {
  return n > 0 ? '+' : n < 0 ? minus : '±';
}

function grouped(n: number): string {
  const [whole = '', fraction] = String(Math.abs(n)).split('.');
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (n < 0 ? minus : '') + (fraction === undefined ? digits : `${digits}.${fraction}`);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A caller's name or ref on one line: a newline in it must not forge a line of the message. */
function oneLine(text: string): string {
  const flat = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

interface Parts {
  y: string;
  mo: string;
  d: string;
  h: string;
  mi: string;
}

/** A timestamp in Japan time (UTC+9 all year: no daylight saving), or the text as given when it is not one. */
function jst(iso: string, format: (parts: Parts) => string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return oneLine(iso);
  const t = new Date(ms + 9 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return format({
    y: String(t.getUTCFullYear()),
    mo: two(t.getUTCMonth() + 1),
    d: two(t.getUTCDate()),
    h: two(t.getUTCHours()),
    mi: two(t.getUTCMinutes()),
  });
}

function isAvailability(value: FieldValue | undefined): value is Availability {
  return typeof value === 'string' && Object.hasOwn(ja.availability, value);
}

function isPriceTax(value: FieldValue | undefined): value is PriceTax {
  return typeof value === 'string' && Object.hasOwn(ja.priceTax, value);
}

function isShipping(value: FieldValue | undefined): value is Shipping {
  return typeof value === 'string' && Object.hasOwn(ja.shipping, value);
}
