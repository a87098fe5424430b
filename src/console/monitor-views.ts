// The console's monitor pages: the account's monitors (last price and change per target) and one monitor's page
// (settings, a price chart per target, targets, recent checks and alerts). Values read as the alerts word them.
import { markup, scrollTable, type SafeHtml } from './html.js';
import { formatNumber, formatTime, type MessageKey } from './i18n.js';
import { layout, type PageContext } from './views.js';
import { scheduleWords } from './schedule-words.js';
import { priceChart, type PricePoint } from './price-chart.js';
import { yenFields, type FieldChange, type MonitorEventType, type WatchedField } from '../monitors/model.js';
import { fieldName, formatChange, formatValue, renderMessage, type RenderedMessage } from '../monitors/messages.js';
import type { CheckRecord, HistoryPoint, MonitorRecord, TargetRecord } from '../monitors/monitor-store.js';

/** An event as the store's `events` read gives it (its data as JSON text). */
export interface MonitorEventRecord {
  id: string;
  type: MonitorEventType;
  targetId: string | null;
  data: string;
  createdAt: string;
}

export interface MonitorListEntry {
  monitor: MonitorRecord;
  /** Per target id, its newest check (of the recent ones read) that found a change. */
  lastChanges: Record<string, CheckRecord>;
}

export interface MonitorsData {
  monitors: MonitorListEntry[];
}

export interface MonitorDetailData {
  monitor: MonitorRecord;
  /** The target the chart is of; null for a monitor without targets. */
  target: TargetRecord | null;
  /** The target's history over the window, oldest first; null when the monitor keeps none. */
  history: HistoryPoint[] | null;
  /** The window the history covers, in days. */
  historyDays: number;
  checks: CheckRecord[];
  events: MonitorEventRecord[];
}

/** Targets listed per monitor on the list page; the rest are counted. */
export const listedTargets = 5;

/** Items one after another with a separator between them (markup, escaped as any other value). */
function joined(items: readonly (SafeHtml | string)[], separator: SafeHtml | string): SafeHtml {
  return markup`${items.map((each, i) => markup`${i > 0 ? separator : ''}${each}`)}`;
}

/** How a target is named on the pages: the caller's ref, else the page's host. */
export function targetLabel(target: Pick<TargetRecord, 'ref' | 'url'>): string {
  if (target.ref !== null && target.ref.trim() !== '') return target.ref;
  try {
    return new URL(target.url).host;
  } catch {
    return target.url;
  }
}

/** The field the chart draws: the price when watched, else the first watched yen field. */
export function chartFieldOf(watch: readonly WatchedField[]): WatchedField {
  return watch.includes('price') ? 'price' : (yenFields.find((field) => watch.includes(field)) ?? 'price');
}

function statusText(ctx: PageContext, monitor: MonitorRecord): string {
  if (monitor.status === 'paused' && monitor.pausedReason === 'max_credits_per_month') return ctx.t('pausedCredits');
  return ctx.t(monitor.status === 'active' ? 'monitor_active' : 'monitor_paused');
}

function nextRunText(ctx: PageContext, monitor: MonitorRecord): SafeHtml | string {
  if (monitor.nextRunAt === null) return ctx.t('notScheduled');
  return markup`<time datetime="${monitor.nextRunAt}">${formatTime(monitor.nextRunAt, ctx.lang)}</time>`;
}

/** The change a person looks for first: the price's, else the first field that moved. */
function headlineChange(check: CheckRecord): FieldChange | null {
  return check.changes.find((change) => change.field === 'price') ?? check.changes[0] ?? null;
}

function lastPriceLine(ctx: PageContext, monitor: MonitorRecord, target: TargetRecord, change?: CheckRecord) {
  const { t, lang } = ctx;
  const field = chartFieldOf(monitor.watch);
  const last = target.state.last;
  const value = last?.[field];
  const price = typeof value === 'number' ? markup`<strong>${formatValue(field, value, lang)}</strong>` : '—';
  const headline = change ? headlineChange(change) : null;
  const moved =
    headline && change
      ? markup`${formatChange(headline, lang)}
          <span class="muted">${t('changedAt', { time: formatTime(change.finishedAt ?? change.scheduledAt, lang) })}</span>`
      : markup`<span class="muted">${last ? t('noChangeSeen') : t('notCheckedYet')}</span>`;
  return markup`<li>
    <span class="target-name">${targetLabel(target)}</span> ${price}<br /><span class="change">${moved}</span>
  </li>`;
}

export function monitorsPage(ctx: PageContext, data: MonitorsData): string {
  const { t, lang } = ctx;
  return layout(
    ctx,
    t('monitors'),
    markup`<p>${t('monitorsLead')}</p>
      ${
        data.monitors.length === 0
          ? markup`<p>${t('noMonitors')}</p>`
          : scrollTable(
              t('monitors'),
              'monitors',
              [
                { label: t('monitorName') },
                { label: t('status') },
                { label: t('schedule') },
                { label: t('targetsCount'), num: true },
                { label: t('lastPrices') },
                { label: t('nextRun') },
              ],
              data.monitors.map(({ monitor, lastChanges }) => {
                const hidden = monitor.targets.length - listedTargets;
                return markup`<tr>
                      <td>
                        <a href="/console/monitors/${monitor.id}">${monitor.name ?? monitor.id}</a
                        >${monitor.name === null ? '' : markup`<br /><code class="muted">${monitor.id}</code>`}
                      </td>
                      <td>${statusText(ctx, monitor)}</td>
                      <td>${scheduleWords(monitor.schedule, lang)}</td>
                      <td class="num">${formatNumber(monitor.targets.length, lang)}</td>
                      <td>
                        <ul class="target-prices">
                          ${monitor.targets
                            .slice(0, listedTargets)
                            .map((target) => lastPriceLine(ctx, monitor, target, lastChanges[target.id]))}
                        </ul>
                        ${hidden > 0 ? markup`<span class="muted">${t('moreTargets', { count: hidden })}</span>` : ''}
                      </td>
                      <td>${nextRunText(ctx, monitor)}</td>
                    </tr>`;
              }),
            )
      }`,
    'monitors',
  );
}

const eventKeys: Record<MonitorEventType, MessageKey> = {
  'monitor.alert': 'event_alert',
  'monitor.check.failed': 'event_check_failed',
  'monitor.target.removed': 'event_target_removed',
  'monitor.paused': 'event_paused',
};

/** The event as its notification words it, in the page's language; null when its data cannot be read. */
function rendered(event: MonitorEventRecord, lang: PageContext['lang']): RenderedMessage | null {
  try {
    return renderMessage(event.type, JSON.parse(event.data) as never, lang);
  } catch {
    return null;
  }
}

function lastValues(ctx: PageContext, monitor: MonitorRecord, target: TargetRecord): SafeHtml | string {
  const last = target.state.last;
  if (!last) return markup`<span class="muted">${ctx.t('notCheckedYet')}</span>`;
  const fields = monitor.watch.filter((field) => last[field] !== undefined);
  const lines = fields.map((field) => `${fieldName(field, ctx.lang)}: ${formatValue(field, last[field], ctx.lang)}`);
  return joined(lines, markup`<br />`);
}

function lastCheck(ctx: PageContext, target: TargetRecord): SafeHtml | string {
  const { t, lang } = ctx;
  if (target.lastCheckState === null) return markup`<span class="muted">${t('notCheckedYet')}</span>`;
  return markup`${t(`check_${target.lastCheckState}`)}${
    target.lastCheckAt ? markup`<br /><span class="muted">${formatTime(target.lastCheckAt, lang)}</span>` : ''
  }${target.lastErrorCode ? markup`<br /><code>${target.lastErrorCode}</code>` : ''}${
    target.removed ? markup`<br /><strong>${t('pageRemoved')}</strong>` : ''
  }`;
}

const reasonKeys: Readonly<Record<string, MessageKey>> = {
  overlap: 'reason_overlap',
  credits: 'reason_credits',
  manual: 'reason_manual',
};

function checkState(ctx: PageContext, check: CheckRecord): SafeHtml {
  const reason =
    check.reason === null
      ? null
      : Object.hasOwn(reasonKeys, check.reason)
        ? ctx.t(reasonKeys[check.reason]!)
        : check.reason;
  return markup`${ctx.t(`check_${check.state}`)}${reason ? markup`<br /><span class="muted">${reason}</span>` : ''}`;
}

function checkError(check: CheckRecord): SafeHtml | '' {
  return check.error ? markup`<br /><code>${check.error.code}</code> (${check.error.status})` : '';
}

function chartSection(ctx: PageContext, data: MonitorDetailData): SafeHtml {
  const { t, lang } = ctx;
  const { monitor, target } = data;
  if (!target) return markup``;
  const switcher =
    monitor.targets.length > 1
      ? markup`<nav class="target-switch" aria-label="${t('chooseTarget')}">
          <ul>
            ${monitor.targets.map(
              (each) =>
                markup`<li><a href="/console/monitors/${monitor.id}?target=${each.id}#price-history"${
                  each.id === target.id ? markup` aria-current="true"` : ''
                }>${targetLabel(each)}</a></li>`,
            )}
          </ul>
        </nav>`
      : '';
  if (data.history === null) {
    return markup`<section aria-labelledby="price-history">
      <h2 id="price-history">${t('priceHistory')}</h2>
      <p class="notice">${t('historyOffLead', { id: monitor.id })}</p>
    </section>`;
  }
  const field = chartFieldOf(monitor.watch);
  const points: PricePoint[] = data.history.map((point) => {
    const price = point.values[field];
    const availability = point.values.availability;
    return {
      t: point.t,
      price: typeof price === 'number' ? price : null,
      availability: typeof availability === 'string' ? availability : null,
    };
  });
  const until = target.lastCheckState === 'completed' ? target.lastCheckAt : null;
  return markup`<section aria-labelledby="price-history">
    <h2 id="price-history">${t('priceHistory')}</h2>
    ${switcher}
    <figure class="price-figure">
      ${priceChart(points, { lang, subject: targetLabel(target), until, id: `chart-${target.id}` })}
      <figcaption class="muted">${t('historyWindow', { days: data.historyDays })}</figcaption>
    </figure>
    <p>
      <a href="/console/monitors/${monitor.id}/history.csv?target=${target.id}" download>${t('downloadCsv')}</a>
    </p>
  </section>`;
}

// The sections holding a table are not named: the table's scroll region is the landmark, named as its heading, and
// two landmarks of one name are one too many (axe landmark-unique).
export function monitorDetailPage(ctx: PageContext, data: MonitorDetailData): string {
  const { t, lang } = ctx;
  const { monitor } = data;
  const n = (v: number) => formatNumber(v, lang);
  const item = (label: string, value: SafeHtml | string | number) =>
    markup`<div>
      <dt>${label}</dt>
      <dd>${value}</dd>
    </div>`;
  const targetsById = new Map(monitor.targets.map((target) => [target.id, target]));
  const targetOf = (id: string | null) => {
    const target = id === null ? undefined : targetsById.get(id);
    return target ? targetLabel(target) : (id ?? '—');
  };
  const channels = [
    ...(monitor.notify.webhook ? [markup`Webhook <code>${monitor.notify.webhook.endpoint_id}</code>`] : []),
    ...monitor.notify.channels.map((channel) => markup`${channel.kind}`),
  ];
  const retention =
    monitor.retainDays === null ? t('historyOff') : t('retainDaysValue', { days: n(monitor.retainDays) });
  return layout(
    ctx,
    t('monitorDetail', { name: monitor.name ?? monitor.id }),
    markup`<dl class="detail">
        ${item(t('monitorName'), markup`<code>${monitor.id}</code>`)}
        ${item(t('status'), statusText(ctx, monitor))}
        ${item(t('schedule'), scheduleWords(monitor.schedule, lang))}
        ${item(t('nextRun'), nextRunText(ctx, monitor))}
        ${item(t('watched'), monitor.watch.map((field) => fieldName(field, lang)).join(lang === 'ja' ? '、' : ', '))}
        ${item(t('retainDays'), retention)}
        ${item(t('creditsThisMonth'), n(monitor.creditsUsed))}
        ${item(t('creditLimit'), monitor.maxCreditsPerMonth === null ? t('none') : n(monitor.maxCreditsPerMonth))}
        ${item(t('notifications'), channels.length === 0 ? t('none') : joined(channels, ', '))}
        ${item(t('created'), formatTime(monitor.createdAt, lang))}
      </dl>
      ${chartSection(ctx, data)}
      <section>
        <h2 id="targets">${t('targets')}</h2>
        ${scrollTable(
          t('targets'),
          'targets',
          [
            { label: t('ref') },
            { label: t('url') },
            { label: t('site') },
            { label: t('lastValues') },
            { label: t('lastCheck') },
          ],
          monitor.targets.map(
            (target) =>
              markup`<tr>
                    <td>${target.ref ?? '—'}<br /><code class="muted">${target.id}</code></td>
                    <td><code class="wrap">${target.url}</code></td>
                    <td>${target.siteId}</td>
                    <td>${lastValues(ctx, monitor, target)}</td>
                    <td>${lastCheck(ctx, target)}</td>
                  </tr>`,
          ),
        )}
      </section>
      <section>
        <h2 id="recent-checks">${t('recentChecks')}</h2>
        ${
          data.checks.length === 0
            ? markup`<p>${t('noChecks')}</p>`
            : markup`<p class="muted">${t('recentChecksLead', { n: data.checks.length })}</p>
              ${scrollTable(
                t('recentChecks'),
                'checks',
                [
                  { label: t('time') },
                  { label: t('target') },
                  { label: t('status') },
                  { label: t('cost'), num: true },
                  { label: t('changes') },
                  { label: t('rulesHit') },
                ],
                data.checks.map(
                  (check) =>
                    markup`<tr>
                          <td>${formatTime(check.finishedAt ?? check.startedAt ?? check.scheduledAt, lang)}</td>
                          <td>${targetOf(check.targetId)}</td>
                          <td>
                            ${checkState(ctx, check)}${checkError(check)}
                          </td>
                          <td class="num">${n(check.costUnits)}</td>
                          <td>
                            ${
                              check.changes.length === 0
                                ? '—'
                                : joined(
                                    check.changes.map((c) => formatChange(c, lang)),
                                    markup`<br />`,
                                  )
                            }
                          </td>
                          <td>
                            ${
                              check.rulesHit.length === 0
                                ? '—'
                                : joined(
                                    check.rulesHit.map((r) => markup`<code>${r}</code>`),
                                    ', ',
                                  )
                            }
                          </td>
                        </tr>`,
                ),
              )}`
        }
      </section>
      <section>
        <h2 id="recent-alerts">${t('recentAlerts')}</h2>
        <p class="muted">${t('alertsLead')}</p>
        ${
          data.events.length === 0
            ? markup`<p>${t('noAlerts')}</p>`
            : scrollTable(
                t('recentAlerts'),
                'alerts',
                [{ label: t('time') }, { label: t('eventType') }, { label: t('target') }, { label: t('message') }],
                data.events.map((event) => {
                  const message = rendered(event, lang);
                  return markup`<tr>
                        <td>${formatTime(event.createdAt, lang)}</td>
                        <td>${t(eventKeys[event.type] ?? 'event_alert')}</td>
                        <td>${event.targetId === null ? '—' : targetOf(event.targetId)}</td>
                        <td>
                          ${
                            message
                              ? markup`<details class="message">
                                  <summary>${message.title}</summary>
                                  <p class="message-text">${message.text}</p>
                                </details>`
                              : markup`<code>${event.type}</code>`
                          }
                        </td>
                      </tr>`;
                }),
              )
        }
      </section>
      <p><a href="/console/monitors">${t('backToMonitors')}</a></p>`,
    'monitors',
  );
}
