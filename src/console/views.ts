// The console's pages as server-rendered HTML: one layout (language switch, navigation, sign-out) and each page.
import { markup, scrollTable, type SafeHtml } from './html.js';
import { formatDay, formatNumber, formatTime, type Lang, type MessageKey, type Translate } from './i18n.js';
import { dailyChart, type DayBar } from './chart.js';
import type { ConsoleSession } from './console-sessions.js';
import type { UsageReport } from '../accounts/usage-report.js';
import type { RequestRecord, RequestSpend } from '../storage/storage.js';
import { allOperations } from '../storage/storage.js';
import type { KeySummary } from '../accounts/accounts-service.js';
import type { SiteCatalogueEntry } from '../http/site-catalogue.js';
import { isPageType, type Coverage, type PageType } from '../sites/site.js';
import { itemStates, type BatchRecord, type FailureCount } from '../batches/batch-store.js';

export interface PageContext {
  lang: Lang;
  t: Translate;
  /** The path of this page (no query), for the language switch and the current navigation entry. */
  path: string;
  /** The query without `lang`, kept by the language switch. */
  query: string;
  session: ConsoleSession | null;
}

// Wide tables scroll sideways in a focusable region (class scroll), so a keyboard can reach what is off screen.
export type Section = 'overview' | 'requests' | 'batches' | 'monitors' | 'keys' | 'sites';
const sections: { id: Section; path: string }[] = [
  { id: 'overview', path: '/console' },
  { id: 'requests', path: '/console/requests' },
  { id: 'batches', path: '/console/batches' },
  { id: 'monitors', path: '/console/monitors' },
  { id: 'keys', path: '/console/keys' },
  { id: 'sites', path: '/console/sites' },
];

function switchHref(ctx: PageContext, lang: Lang): string {
  return `${ctx.path}?${ctx.query ? `${ctx.query}&` : ''}lang=${lang}`;
}

export function layout(ctx: PageContext, title: string, body: SafeHtml, current?: Section): string {
  const { t } = ctx;
  const nav = ctx.session
    ? markup`<nav aria-label="${t('nav')}">
          <ul>
            ${sections.map(
              (s) =>
                markup`<li><a href="${s.path}" ${s.id === current ? markup` aria-current="page"` : ''}>${t(s.id)}</a></li>`,
            )}
          </ul>
        </nav>
        <form method="post" action="/console/sign-out" class="sign-out">
          <input type="hidden" name="_csrf" value="${ctx.session.csrfToken}" /><button type="submit">
            ${t('signOut')}
          </button>
        </form>`
    : '';
  const other: Lang = ctx.lang === 'ja' ? 'en' : 'ja';
  const document = markup`<html lang="${ctx.lang}">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${title} · ${t('product')}</title>
      <link rel="stylesheet" href="/console/assets/console.css" />
      <script src="/console/assets/console.js" defer></script>
    </head>
    <body>
      <a class="skip" href="#main">${t('skip')}</a>
      <header>
        <p class="brand"><a href="/console">${t('product')}</a></p>
        ${nav}
        <p class="lang-switch">
          <a href="${switchHref(ctx, other)}" hreflang="${other}" lang="${other}"
            >${other === 'ja' ? '日本語' : 'English'}</a
          >
        </p>
      </header>
      <main id="main">
        <h1>${title}</h1>
        ${body}
      </main>
    </body>
  </html>`;
  return `<!DOCTYPE html>\n${document.value}`;
}

export function signInPage(ctx: PageContext, message: { kind: 'error' | 'notice'; text: string } | null): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('signInTitle'),
    markup`${message ? markup`<p class="${message.kind}" role="${message.kind === 'error' ? 'alert' : 'status'}">${message.text}</p>` : ''}
      <p>${t('signInLead')}</p>
      <form method="post" action="/console/sign-in" class="stack">
        <label for="key">${t('apiKey')}</label>
        <input
          id="key"
          name="key"
          type="text"
          class="secret"
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          required
          maxlength="256"
        />
        <button type="submit">${t('signIn')}</button>
      </form>`,
  );
}

export interface OverviewData {
  report: UsageReport;
  spend: RequestSpend;
  days: DayBar[];
  daysInMonth: number;
}

export function overviewPage(ctx: PageContext, data: OverviewData): string {
  const { t, lang } = ctx;
  const { report } = data;
  const n = (v: number) => formatNumber(v, lang);
  const stat = (label: string, live: string, value: number) =>
    markup`<div class="stat">
      <dt>${label}</dt>
      <dd data-live="${live}">${n(value)}</dd>
    </div>`;
  const sites = data.spend.bySite.filter((row) => row.calls > 0);
  return layout(
    ctx,
    t('overview'),
    markup`<p class="muted" id="live-on">${t('live')}</p>
      <p class="notice" id="live-off" aria-live="polite" hidden>
        ${t('liveStopped')} <a href="/console">${t('reload')}</a>
      </p>
      <section class="credits-bar" aria-labelledby="credits-month">
        <h2 id="credits-month">${t('accountCredits')}</h2>
        <meter
          id="credits-meter"
          min="0"
          max="${Math.max(1, report.credits.limit)}"
          value="${report.credits.used}"
          aria-label="${t('accountCredits')}"
        >
          ${t('concurrencyOf', { used: n(report.credits.used), limit: n(report.credits.limit) })}
        </meter>
        <dl>
          <div>
            <dt>${t('creditsUsed')}</dt>
            <dd><span data-live="credits.used">${n(report.credits.used)}</span> / ${n(report.credits.limit)}</dd>
          </div>
          <div>
            <dt>${t('creditsRemaining')}</dt>
            <dd data-live="credits.remaining">${n(report.credits.remaining)}</dd>
          </div>
          <div>
            <dt>${t('resetsAt')}</dt>
            <dd><time datetime="${report.resets_at}">${formatDay(report.resets_at, lang)}</time></dd>
          </div>
        </dl>
      </section>
      <dl class="stats">
        <div class="stat">
          <dt>${t('plan')}</dt>
          <dd>${report.plan}</dd>
        </div>
        <div class="stat">
          <dt>${t('period')}</dt>
          <dd>${report.period}</dd>
        </div>
        ${stat(t('creditsReserved'), 'credits.reserved', report.credits.reserved)}
        ${stat(t('overage'), 'credits.overage_used', report.credits.overage_used)}
        ${stat(t('allowance'), 'credits.allowance', report.credits.allowance)}
        ${stat(t('overageCap'), 'credits.overage_cap', report.credits.overage_cap)}
        <div class="stat">
          <dt>${t('concurrency')}</dt>
          <dd>
            <span data-live="concurrency.in_use">${report.concurrency.in_use}</span> /
            <span data-live="concurrency.limit">${report.concurrency.limit}</span>
            <meter
              id="concurrency-meter"
              min="0"
              max="${report.concurrency.limit}"
              value="${report.concurrency.in_use}"
              aria-label="${t('concurrency')}"
            >
              ${t('concurrencyOf', { used: report.concurrency.in_use, limit: report.concurrency.limit })}
            </meter>
          </dd>
        </div>
      </dl>
      <section aria-labelledby="daily">
        <h2 id="daily">${t('dailyUsage')}</h2>
        ${dailyChart(data.days, data.daysInMonth, t('dailyChartLabel'), t('credits'))}
      </section>
      <section aria-labelledby="by-site">
        <h2 id="by-site">${t('spendBySite')}</h2>
        ${
          sites.length === 0
            ? markup`<p>${t('noCalls')}</p>`
            : markup`<table>
                <thead>
                  <tr>
                    <th scope="col">${t('site')}</th>
                    <th scope="col" class="num">${t('calls')}</th>
                    <th scope="col" class="num">${t('credits')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${sites.map(
                    (row) =>
                      markup`<tr>
                        <td>${row.siteId ?? t('noSite')}</td>
                        <td class="num">${n(row.calls)}</td>
                        <td class="num">${n(row.credits)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
      </section>`,
    'overview',
  );
}

export interface RequestFilters {
  site: string;
  status: string;
  error_code: string;
  from: string;
  to: string;
}

export interface RequestsData {
  rows: RequestRecord[];
  filters: RequestFilters;
  page: number;
  hasMore: boolean;
  sites: string[];
  statuses: readonly string[];
  errorCodes: readonly string[];
  /** The filter part of this page's query, for the paging links. */
  filterQuery: string;
  notFound: boolean;
  /** Date filters refused (impossible, out of range, or from after to), each said in the page's language. */
  dateProblems: string[];
}

function select(id: string, name: string, label: string, any: string, options: readonly string[], chosen: string) {
  return markup`<div class="field">
    <label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      <option value="">${any}</option>
      ${options.map((value) => markup`<option${value === chosen ? markup` selected` : ''}>${value}</option>`)}
    </select>
  </div>`;
}

export function requestsPage(ctx: PageContext, data: RequestsData): string {
  const { t, lang } = ctx;
  const f = data.filters;
  const pageHref = (page: number) => `/console/requests?${data.filterQuery ? `${data.filterQuery}&` : ''}page=${page}`;
  return layout(
    ctx,
    t('requests'),
    markup`<form method="get" action="/console/requests/lookup" class="inline" role="search" aria-label="${t('lookup')}">
        <div class="field">
          <label for="lookup-id">${t('lookup')}</label
          ><input id="lookup-id" name="id" required maxlength="64" spellcheck="false" placeholder="req_…" />
        </div>
        <button type="submit">${t('find')}</button>
      </form>
      ${data.notFound ? markup`<p class="error" role="alert">${t('requestNotFound')}</p>` : ''}
      ${data.dateProblems.map((problem) => markup`<p class="error" role="alert">${problem}</p>`)}
      <form method="get" action="/console/requests" class="inline filters" aria-label="${t('filters')}">
        ${select('f-site', 'site', t('site'), t('any'), data.sites, f.site)}
        ${select('f-status', 'status', t('status'), t('any'), data.statuses, f.status)}
        ${select('f-code', 'error_code', t('errorCode'), t('any'), data.errorCodes, f.error_code)}
        <div class="field">
          <label for="f-from">${t('from')}</label><input id="f-from" name="from" type="date" value="${f.from}" />
        </div>
        <div class="field">
          <label for="f-to">${t('to')}</label><input id="f-to" name="to" type="date" value="${f.to}" />
        </div>
        <button type="submit">${t('apply')}</button>
      </form>
      ${
        data.rows.length === 0
          ? markup`<p>${t('noRequests')}</p>`
          : scrollTable(
              t('requests'),
              'requests',
              [
                { label: t('requestId') },
                { label: t('time') },
                { label: t('url') },
                { label: t('site') },
                { label: t('pageType') },
                { label: t('status') },
                { label: t('attempts'), num: true },
                { label: t('cost'), num: true },
                { label: t('latency'), num: true },
              ],
              data.rows.map(
                (row) =>
                  markup`<tr>
                        <td>
                          <a href="/console/requests/${row.requestId}"><code>${row.requestId}</code></a>
                        </td>
                        <td>${formatTime(row.createdAt, lang)}</td>
                        <td class="url">${row.url === null ? '—' : markup`<span title="${row.url}">${shortUrl(row.url)}</span>`}</td>
                        <td>${row.siteId ?? '—'}</td>
                        <td>${row.pageType ?? '—'}</td>
                        <td>${row.status}${row.errorCode ? markup` <code>${row.errorCode}</code>` : ''}</td>
                        <td class="num">${row.attempts}</td>
                        <td class="num">${row.costUnits}</td>
                        <td class="num">${formatNumber(row.latencyMs, lang)}</td>
                      </tr>`,
              ),
            )
      }
      <nav class="pager" aria-label="${t('requests')}">
        ${data.page > 1 ? markup`<a href="${pageHref(data.page - 1)}" rel="prev">${t('newer')}</a>` : ''}${data.hasMore ? markup`<a href="${pageHref(data.page + 1)}" rel="next">${t('older')}</a>` : ''}
      </nav>`,
    'requests',
  );
}

/**
 * A logged URL (its credentials were removed before it was stored) short enough for a table cell: host and path, cut
 * in the middle past 60 characters; the whole URL is the cell's title and on the request's own page.
 */
export function shortUrl(url: string): string {
  let shown = url;
  try {
    const parsed = new URL(url);
    shown = `${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    // Not a URL (a refused input is logged as given): shown as it is, cut like any other.
  }
  return shown.length <= 60 ? shown : `${shown.slice(0, 40)}…${shown.slice(-19)}`;
}

export function requestDetailPage(ctx: PageContext, row: RequestRecord): string {
  const { t, lang } = ctx;
  const item = (label: string, value: SafeHtml | string | number | null) =>
    markup`<div>
      <dt>${label}</dt>
      <dd>${value === null ? '—' : value}</dd>
    </div>`;
  return layout(
    ctx,
    t('requestDetail', { id: row.requestId }),
    markup`<dl class="detail">
        ${item(t('requestId'), markup`<code>${row.requestId}</code>`)} ${item(t('time'), formatTime(row.createdAt, lang))}
        ${item(t('site'), row.siteId)}${item(t('pageType'), row.pageType)}
        ${item(t('url'), row.url === null ? null : markup`<code class="wrap">${row.url}</code>`)}
        ${item(t('status'), row.status)}${item(t('errorCode'), row.errorCode)}${item(t('httpStatus'), row.httpStatus)}
        ${item(t('attempts'), row.attempts)}${item(t('route'), row.route)}${item(t('cost'), row.costUnits)}
        ${item(t('latency'), row.latencyMs)}${item(t('keyId'), markup`<code>${row.keyId}</code>`)}${item(t('artifact'), row.artifactId)}
      </dl>
      <p><a href="/console/requests">${t('backToRequests')}</a></p>`,
    'requests',
  );
}

export interface KeysData {
  keys: KeySummary[];
  created: { key: string; keyId: string } | null;
  notice: string | null;
  error: string | null;
  sites: string[];
  planConcurrency: number;
}

function narrowingOf(key: KeySummary, t: Translate): SafeHtml {
  const parts: string[] = [];
  if (key.sites) parts.push(`${t('sites')}: ${key.sites.join(', ')}`);
  if (key.operations) parts.push(`${t('operations')}: ${key.operations.join(', ')}`);
  if (key.outputs) parts.push(`${t('outputs')}: ${key.outputs.join(', ')}`);
  if (key.monthlyCreditLimit !== null) parts.push(`${t('creditLimit')}: ${key.monthlyCreditLimit}`);
  if (key.concurrencyLimit !== null) parts.push(`${t('concurrencyCap')}: ${key.concurrencyLimit}`);
  return parts.length === 0
    ? markup`${t('none')}`
    : markup`${parts.map((p, i) => markup`${i > 0 ? markup`<br />` : ''}${p}`)}`;
}

function checkboxes(name: string, legend: string, values: readonly string[]): SafeHtml {
  return markup`<fieldset>
    <legend>${legend}</legend>
    ${values.map(
      (value) =>
        markup`<label class="check"><input type="checkbox" name="${name}" value="${value}" /> ${value}</label>`,
    )}
  </fieldset>`;
}

/**
 * Narrowing an existing key: only what the key allows now is offered, and an empty field keeps its current value
 * (Accounts.narrowKey refuses anything wider in any case).
 */
function narrowForm(ctx: PageContext, key: KeySummary, data: KeysData, csrf: SafeHtml): SafeHtml {
  const { t } = ctx;
  const id = (field: string) => `n-${key.id}-${field}`;
  const maxConcurrency = Math.min(key.concurrencyLimit ?? data.planConcurrency, data.planConcurrency);
  return markup`<details class="narrow">
    <summary>${t('narrow')}</summary>
    <form method="post" action="/console/keys/${key.id}/narrow" class="stack" aria-label="${t('narrow')} ${key.id}">
      ${csrf}
      <p class="muted">${t('narrowLead')}</p>
      <div class="field">
        <label for="${id('sites')}">${t('sites')}</label
        ><select id="${id('sites')}" name="sites" multiple size="4">
          ${(key.sites ?? data.sites).map((site) => markup`<option>${site}</option>`)}
        </select>
      </div>
      ${checkboxes('operations', t('operations'), key.operations ?? allOperations)}
      ${checkboxes('outputs', t('outputs'), key.outputs ?? ['json', 'html', 'artifact'])}
      <div class="field">
        <label for="${id('credits')}">${t('creditLimit')}</label
        ><input id="${id('credits')}" name="monthly_credit_limit" type="number" min="0"${key.monthlyCreditLimit === null ? '' : markup` max="${key.monthlyCreditLimit}"`} step="1" inputmode="numeric" />
      </div>
      <div class="field">
        <label for="${id('concurrency')}">${t('concurrencyLimit', { max: maxConcurrency })}</label
        ><input id="${id('concurrency')}" name="concurrency_limit" type="number" min="1" max="${maxConcurrency}" step="1" inputmode="numeric" />
      </div>
      <button type="submit">${t('narrow')}</button>
    </form>
  </details>`;
}

export function keysPage(ctx: PageContext, data: KeysData): string {
  const { t, lang } = ctx;
  const session = ctx.session!;
  const manage = session.canManageKeys;
  const csrf = markup`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;
  return layout(
    ctx,
    t('keys'),
    markup`${
      data.created
        ? markup`<section class="created" aria-labelledby="new-key">
              <h2 id="new-key">${t('newKeyTitle')}</h2>
              <p>${t('newKeyLead')}</p>
              <p class="new-secret">
                <code id="new-secret">${data.created.key}</code>
                <button type="button" class="copy" data-copy="new-secret" data-copied="${t('copied')}">
                  ${t('copy')}
                </button>
              </p>
              <p class="muted"><code>${data.created.keyId}</code></p>
            </section>`
        : ''
    }
      ${data.notice ? markup`<p class="notice" role="status">${data.notice}</p>` : ''}
      ${data.error ? markup`<p class="error" role="alert">${data.error}</p>` : ''}
      <p>${t('keysLead')}</p>
      ${manage ? '' : markup`<p class="notice">${t('keysReadOnly')}</p>`}
      ${scrollTable(
        t('keys'),
        'keys',
        [
          { label: t('keyId') },
          { label: t('prefix') },
          { label: t('keyStatus') },
          { label: t('created') },
          { label: t('usedThisMonth'), num: true },
          { label: t('narrowing') },
          { label: t('actions') },
        ],
        data.keys.map(
          (key) =>
            markup`<tr id="${key.id}">
                  <td>
                    ${key.label === undefined ? '' : markup`<strong>${key.label}</strong><br />`}<code>${key.id}</code
                    >${key.id === session.caller.key.id ? markup`<br /><span class="muted">${t('thisSession')}</span>` : ''}
                  </td>
                  <td><code>${key.displayPrefix}</code></td>
                  <td>${t(key.status)}</td>
                  <td>${formatTime(key.createdAt, lang)}</td>
                  <td class="num">${formatNumber(key.usedThisMonth, lang)}</td>
                  <td>${narrowingOf(key, t)}</td>
                  ${
                    manage
                      ? markup`<td>
                          ${
                            key.status === 'active'
                              ? markup`<a href="/console/keys/${key.id}/rotate" class="row-action" aria-label="${t('rotate')} ${key.id}"
                                    >${t('rotate')}</a
                                  >
                                  <a
                                    href="/console/keys/${key.id}/revoke"
                                    class="row-action"
                                    aria-label="${t('revoke')} ${key.id}"
                                    >${t('revoke')}</a
                                  >
                                  ${narrowForm(ctx, key, data, csrf)}`
                              : ''
                          }
                        </td>`
                      : ''
                  }
                </tr>`,
        ),
      )}
      ${
        manage
          ? markup`<section aria-labelledby="create-key">
              <h2 id="create-key">${t('createKey')}</h2>
              <p>${t('createLead')}</p>
              <form method="post" action="/console/keys" class="stack">
                ${csrf}
                <div class="field">
                  <label for="k-label">${t('keyLabel')}</label
                  ><input id="k-label" name="label" type="text" maxlength="64" aria-describedby="k-label-hint" /><span
                    id="k-label-hint"
                    class="muted"
                    >${t('keyLabelHint')}</span
                  >
                </div>
                <div class="field">
                  <label for="k-sites">${t('sites')}</label
                  ><select id="k-sites" name="sites" multiple size="6">
                    ${data.sites.map((id) => markup`<option>${id}</option>`)}
                  </select>
                </div>
                ${checkboxes('operations', t('operations'), allOperations)}
                ${checkboxes('outputs', t('outputs'), ['json', 'html', 'artifact'])}
                <div class="field">
                  <label for="k-credits">${t('creditLimit')}</label
                  ><input
                    id="k-credits"
                    name="monthly_credit_limit"
                    type="number"
                    min="0"
                    step="1"
                    inputmode="numeric"
                  />
                </div>
                <div class="field">
                  <label for="k-concurrency">${t('concurrencyLimit', { max: data.planConcurrency })}</label
                  ><input
                    id="k-concurrency"
                    name="concurrency_limit"
                    type="number"
                    min="1"
                    max="${data.planConcurrency}"
                    step="1"
                    inputmode="numeric"
                  />
                </div>
                <button type="submit">${t('create')}</button>
              </form>
            </section>`
          : ''
      }`,
    'keys',
  );
}

/** Each page type's name for a buyer: a new page type does not compile until it is named here. */
const pageTypeNames: Readonly<Record<PageType, MessageKey>> = {
  item: 'ptItem',
  search: 'ptSearch',
  ranking: 'ptRanking',
  offers: 'ptOffers',
  forecast: 'ptForecast',
  forecast_overview: 'ptForecastOverview',
  areas: 'ptAreas',
  table: 'ptTable',
  meta: 'ptMeta',
  list: 'ptList',
  history: 'ptHistory',
  quote: 'ptQuote',
  record: 'ptRecord',
  records: 'ptRecords',
  document: 'ptDocument',
};

/** A page type as a buyer names it (a stored one Kumo no longer serves: its id). */
function pageTypeName(pageType: string, t: Translate): string {
  return isPageType(pageType) ? t(pageTypeNames[pageType]) : pageType;
}

const coverageWords: Record<Coverage, { level: MessageKey; about: MessageKey }> = {
  stable: { level: 'levelStable', about: 'aboutStable' },
  beta: { level: 'levelBeta', about: 'aboutBeta' },
  verifying: { level: 'levelVerifying', about: 'aboutVerifying' },
  experimental: { level: 'levelExperimental', about: 'aboutExperimental' },
  stopped: { level: 'levelStopped', about: 'aboutStopped' },
};

/** A URL pattern's path shape only: the remark after it is a developer's note (docs/sites.md keeps it). */
function urlShape(pattern: string): string {
  const cut = pattern.indexOf(' (');
  return (cut === -1 ? pattern : pattern.slice(0, cut)).trim();
}

/**
 * The Sites page, written for someone deciding whether Kumo reads what they need: each page type by name with the
 * shape of the URLs it reads, its level in words, and how many recorded real pages prove it. The developers' notes
 * (GET /v1/sites, docs/sites.md) are not repeated here.
 */
export function sitesPage(ctx: PageContext, sites: SiteCatalogueEntry[]): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('sites'),
    markup`<p>${t('sitesLead')}</p>
      <dl class="levels">
        ${(Object.keys(coverageWords) as Coverage[]).map(
          (level) =>
            markup`<div>
              <dt><span class="level level-${level}">${t(coverageWords[level].level)}</span></dt>
              <dd>${t(coverageWords[level].about)}</dd>
            </div>`,
        )}
      </dl>
      ${scrollTable(
        t('sites'),
        'sites',
        [
          { label: t('site') },
          { label: t('creditsPerPage'), num: true },
          { label: t('pageType') },
          { label: t('urlPattern') },
          { label: t('coverage') },
          { label: t('verifiedBy') },
        ],
        sites.map((site) =>
          site.page_types.map(
            (entry, i) =>
              markup`<tr>
                    ${
                      i === 0
                        ? markup`<th scope="rowgroup" rowspan="${site.page_types.length}">
                              <strong>${site.name}</strong><br /><span class="muted"
                                >${site.kind === 'commerce' ? t('kindCommerce') : t('kindPublic')}</span
                              ><br /><span class="muted host">${site.hosts.join(', ')}</span>
                            </th>
                            <td rowspan="${site.page_types.length}" class="num">
                              ${site.cost}${site.route === 'browser' ? markup`<br /><span class="muted">${t('inBrowser')}</span>` : ''}
                            </td>`
                        : ''
                    }
                    <td>${pageTypeName(entry.page_type, t)}</td>
                    <td class="pattern"><code>${urlShape(entry.url_pattern)}</code></td>
                    <td>
                      <span class="level level-${entry.coverage}">${t(coverageWords[entry.coverage as Coverage].level)}</span
                      >${entry.review ? markup`<br /><span class="muted">${t('review')}</span>` : ''}
                    </td>
                    <td>${t('evidence', { real: entry.fixtures.real, modelled: entry.fixtures.modelled })}</td>
                  </tr>`,
          ),
        ),
      )}`,
    'sites',
  );
}

/** Items past queued and running, and the share of the total they are (floored: 100 % means every item). */
function progressOf(batch: BatchRecord): { done: number; total: number; percent: number } {
  const total = batch.counts.total;
  const done = Math.max(0, total - batch.counts.queued - batch.counts.running);
  return { done, total, percent: total === 0 ? 100 : Math.floor((done / total) * 100) };
}

/** A `<progress>` bar (no inline style: the console's CSP allows none) with the same figures as text. */
function progressBar(ctx: PageContext, batch: BatchRecord, id?: string): SafeHtml {
  const { t, lang } = ctx;
  const p = progressOf(batch);
  const label = t('progressOf', {
    done: formatNumber(p.done, lang),
    total: formatNumber(p.total, lang),
    percent: p.percent,
  });
  return markup`<progress${id ? markup` id="${id}"` : ''} max="${Math.max(1, p.total)}" value="${p.total === 0 ? 1 : p.done}"
      aria-label="${t('progress')}">${p.percent} %</progress>
    <span class="progress-text">${label}</span>`;
}

const costSoFar = (batch: BatchRecord) => batch.credits.charged + batch.credits.held;

export interface BatchesData {
  batches: BatchRecord[];
}

export function batchesPage(ctx: PageContext, data: BatchesData): string {
  const { t, lang } = ctx;
  return layout(
    ctx,
    t('batches'),
    markup`<p>${t('batchesLead')}</p>
      ${
        data.batches.length === 0
          ? markup`<p>${t('noBatches')}</p>`
          : scrollTable(
              t('batches'),
              'batches',
              [
                { label: t('batchId') },
                { label: t('created') },
                { label: t('status') },
                { label: t('progress') },
                { label: t('state_failed'), num: true },
                { label: t('costSoFar'), num: true },
                { label: t('resultsExpire') },
              ],
              data.batches.map(
                (batch) =>
                  markup`<tr>
                        <td><a href="/console/batches/${batch.id}"><code>${batch.id}</code></a></td>
                        <td>${formatTime(batch.createdAt, lang)}</td>
                        <td>${t(`batch_${batch.status}`)}</td>
                        <td class="progress-cell">${progressBar(ctx, batch)}</td>
                        <td class="num">${formatNumber(batch.counts.failed, lang)}</td>
                        <td class="num">${formatNumber(costSoFar(batch), lang)}</td>
                        <td>${formatTime(batch.resultsExpireAt, lang)}</td>
                      </tr>`,
              ),
            )
      }`,
    'batches',
  );
}

export interface BatchDetailData {
  batch: BatchRecord;
  failures: FailureCount[];
}

/** How often the page of a batch that is still moving reloads itself. */
export const batchRefreshMs = 5_000;

export function batchDetailPage(ctx: PageContext, data: BatchDetailData): string {
  const { t, lang } = ctx;
  const { batch } = data;
  // A batch still moving reloads itself while its tab is shown (assets.ts); a finished one stays as it is.
  const finished = batch.status === 'completed' || batch.status === 'cancelled';
  const n = (v: number) => formatNumber(v, lang);
  const item = (label: string, value: SafeHtml | string | number) =>
    markup`<div>
      <dt>${label}</dt>
      <dd>${value}</dd>
    </div>`;
  return layout(
    ctx,
    t('batchDetail', { id: batch.id }),
    markup`<section aria-labelledby="progress"${finished ? '' : markup` data-refresh-ms="${batchRefreshMs}"`}>
        <h2 id="progress">${t('progress')}</h2>
        <p class="batch-progress">${progressBar(ctx, batch, 'batch-progress')}</p>
        <p class="muted">${finished ? t('batchReloadHint') : t('batchRefreshHint', { seconds: batchRefreshMs / 1000 })} <a href="/console/batches/${batch.id}">${t('reload')}</a></p>
      </section>
      <dl class="detail">
        ${item(t('status'), `${t(`batch_${batch.status}`)} · ${batch.sealed ? t('sealedBatch') : t('openForItems')}`)}
        ${item(t('costSoFar'), markup`<strong>${n(costSoFar(batch))}</strong> <span class="muted">(${t('costBreakdown', { charged: n(batch.credits.charged), held: n(batch.credits.held) })})</span>`)}
        ${item(t('creditsRunning'), n(batch.credits.reserved))}
        ${item(t('maxCredits'), batch.maxCredits === null ? t('none') : n(batch.maxCredits))}
        ${item(t('costMax'), n(batch.estimate.costUnitsMax))}
        ${item(t('created'), formatTime(batch.createdAt, lang))}
        ${item(t('finished'), batch.finishedAt === null ? '—' : formatTime(batch.finishedAt, lang))}
        ${item(t('resultsExpire'), markup`<time datetime="${batch.resultsExpireAt}">${formatTime(batch.resultsExpireAt, lang)}</time>`)}
        ${item(
          t('webhook'),
          batch.webhook === null
            ? t('noWebhook')
            : markup`<code>${batch.webhook.endpointId}</code> (${batch.webhook.payload})`,
        )}
        ${item(t('rejectedUpFront'), n(batch.rejected.length))}
      </dl>
      <section aria-labelledby="by-state">
        <h2 id="by-state">${t('countsByState')}</h2>
        <table class="counts">
          <thead>
            <tr>
              <th scope="col">${t('itemState')}</th>
              <th scope="col" class="num">${t('items')}</th>
            </tr>
          </thead>
          <tbody>
            ${itemStates.map(
              (state) =>
                markup`<tr${batch.counts[state] === 0 ? markup` class="muted"` : ''}>
                  <th scope="row"><span lang="${lang}">${t(`state_${state}`)}</span> <code>${state}</code></th>
                  <td class="num">${n(batch.counts[state])}</td>
                </tr>`,
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">${t('total')}</th>
              <td class="num">${n(batch.counts.total)}</td>
            </tr>
          </tfoot>
        </table>
      </section>
      <section aria-labelledby="by-code">
        <h2 id="by-code">${t('failuresByCode')}</h2>
        ${
          data.failures.length === 0
            ? markup`<p>${t('noFailures')}</p>`
            : markup`<table class="failures">
                <thead>
                  <tr>
                    <th scope="col">${t('errorCode')}</th>
                    <th scope="col">${t('itemState')}</th>
                    <th scope="col" class="num">${t('items')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${data.failures.map(
                    (f) =>
                      markup`<tr>
                        <td><code>${f.code}</code></td>
                        <td>${t(`state_${f.state}`)}</td>
                        <td class="num">${n(f.count)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
      </section>
      <p><a href="/console/batches">${t('backToBatches')}</a></p>`,
    'batches',
  );
}

/** The step before a rotate or revoke: says what will happen (and when it is the session's own key), one POST form. */
export function confirmKeyPage(ctx: PageContext, action: 'rotate' | 'revoke', keyId: string, own: boolean): string {
  const { t } = ctx;
  return layout(
    ctx,
    t(action === 'rotate' ? 'confirmRotateTitle' : 'confirmRevokeTitle'),
    markup`<p>${t(action === 'rotate' ? 'confirmRotate' : 'confirmRevoke', { id: keyId })}</p>
      ${own ? markup`<p class="error" role="alert">${t('confirmOwnKey')}</p>` : ''}
      <form method="post" action="/console/keys/${keyId}/${action}" class="inline">
        <input type="hidden" name="_csrf" value="${ctx.session?.csrfToken ?? ''}" />
        <button type="submit"${action === 'revoke' ? markup` class="danger"` : ''}>${t(action)}</button>
        <a href="/console/keys">${t('cancel')}</a>
      </form>`,
    'keys',
  );
}

export function messagePage(ctx: PageContext, title: string, text: string, requestId?: string): string {
  return layout(
    ctx,
    title,
    markup`<p>${text}</p>
      ${requestId ? markup`<p class="muted">${ctx.t('requestIdIs', { id: requestId })}</p>` : ''}
      <p><a href="/console">${ctx.t('overview')}</a></p>`,
  );
}
