// `kumo monitors create|list|run`: monitors (DESIGN §9) over the HTTP API, talked to as `kumo batch` talks to it.
import { createHash } from 'node:crypto';
import type { Clock } from '../time/clock.js';
import { canonicalJson } from '../scrape/idempotency.js';
import { messageLanguages, type MessageLanguage } from '../monitors/messages.js';
import type { MonitorBody } from '../monitors/monitor-service.js';
import {
  defaultWatch,
  enumFieldValues,
  numericRuleOperators,
  watchableFields,
  type Rule,
  type RuleWhen,
  type WatchedField,
} from '../monitors/model.js';
import { ruleProblems } from '../monitors/rule-problems.js';
import { isValidRef, parse, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { monitorsHelp } from './monitors-help.js';
import type { Answer, BatchApiClient } from './batch-client.js';
import {
  checkLines,
  describeMonitor,
  monitorLine,
  type CheckView,
  type MonitorView,
  type TargetView,
} from './monitors-format.js';

/** What the commands write to and read from: the process's, or a test's. */
export interface MonitorsIo {
  client: BatchApiClient;
  clock: Clock;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  readFile(path: string): Promise<Uint8Array>;
  /** The language of a check's changes (the alert messages' words). */
  language: MessageLanguage;
  /** Between two readings of the checks while waiting (default 1 s). */
  pollMs?: number;
}

/** The flags that shape the body: with --file, the file is the whole body and none of them may be given. */
const bodyFlags = [
  'url',
  'ref',
  'every',
  'cron',
  'timezone',
  'business-days',
  'name',
  'watch',
  'rule',
  'history-days',
  'max-credits',
  'webhook',
  'language',
] as const;

/** The operators a --rule may name: the numeric ones, and from / to (availability and the other enum fields). */
const ruleOperators: readonly string[] = [...numericRuleOperators, 'from', 'to'];

function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** `--watch price,availability`: known fields, no empty item. */
function watchList(value: string | undefined): WatchedField[] | undefined {
  if (value === undefined) return undefined;
  const fields = value.split(',').map((s) => s.trim());
  for (const field of fields) {
    if (field === '') throw new UsageError('--watch needs a comma-separated list without empty items');
    if (!(watchableFields as readonly string[]).includes(field))
      throw new UsageError(`--watch: unknown field ${field} (one of ${watchableFields.join(', ')})`);
  }
  return fields as WatchedField[];
}

/**
 * One `--rule ID:FIELD:OPERATOR:VALUE[:OPERATOR:VALUE][:MODE]` as the API's rule: `drop5:price:change_pct_lte:-5`,
 * `cheap:price:lte:9800:enter`, `back:availability:from:out_of_stock:to:in_stock,limited` (from/to take a
 * comma-separated list). Only the shape is checked here; what the operator means for the field, ruleProblems says.
 */
export function parseRule(spec: string): Rule {
  const bad = (why: string): never => {
    throw new UsageError(`--rule ${spec}: ${why}`);
  };
  const parts = spec.split(':');
  if (parts.length < 4) bad('write it ID:FIELD:OPERATOR:VALUE[:enter], e.g. drop5:price:change_pct_lte:-5');
  const [id, field, ...rest] = parts as [string, string, ...string[]];
  if (!(watchableFields as readonly string[]).includes(field))
    bad(`unknown field ${field} (one of ${watchableFields.join(', ')})`);
  let mode: Rule['mode'];
  if (rest.length % 2 === 1) {
    const last = rest.pop()!;
    if (last !== 'enter' && last !== 'change') bad(`${last} is not a mode (enter or change) nor an operator's value`);
    mode = last as Rule['mode'];
  }
  const when: Record<string, unknown> = { field };
  for (let i = 0; i < rest.length; i += 2) {
    const [op, value] = [rest[i]!, rest[i + 1]!];
    if (!ruleOperators.includes(op)) bad(`unknown operator ${op} (one of ${ruleOperators.join(', ')})`);
    if (op in when) bad(`${op} is given twice`);
    if (value === '') bad(`${op} needs a value`);
    if (op === 'from' || op === 'to') {
      const values = value.split(',').map((v) => v.trim());
      if (values.some((v) => v === '')) bad(`${op} takes a comma-separated list without empty items`);
      // A field without values to name (price, say) is ruleProblems' to refuse, with the fields from/to suit.
      const allowed = enumFieldValues[field as WatchedField];
      const unknown = allowed && values.find((v) => !allowed.includes(v));
      if (allowed && unknown !== undefined) bad(`${unknown} is not a value of ${field} (one of ${allowed.join(', ')})`);
      when[op] = values;
    } else {
      const n = /^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) bad(`${op} needs a number, not ${value}`);
      when[op] = n;
    }
  }
  return { id, when: when as unknown as RuleWhen, ...(mode !== undefined ? { mode } : {}) };
}

/**
 * Every --rule, then the API's own validation of the list (one operator a rule, one that fits the field, unique ids,
 * mode enter only on lte/gte, the field watched), each problem named by the flag as it was typed.
 */
export function parseRules(specs: readonly string[], watch: readonly WatchedField[]): Rule[] {
  const rules = specs.map(parseRule);
  const problems = ruleProblems(rules, watch).map((problem) =>
    problem
      .replace(/^rules\[(\d+)\](?:\.|: )?/, (_m, i: string) => `--rule ${specs[Number(i)]}: `)
      .replace(/rules\[(\d+)\]/g, (_m, i: string) => `--rule ${specs[Number(i)]}`)
      .replace('(add it to watch)', '(add it to --watch)'),
  );
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return rules;
}

/** `kumo monitors create`'s flags as the POST /v1/monitors body, every mistake refused before anything is sent. */
export function createBody(values: {
  url?: string[];
  ref?: string[];
  every?: string;
  cron?: string;
  timezone?: string;
  'business-days'?: boolean;
  name?: string;
  watch?: string;
  rule?: string[];
  'history-days'?: string;
  'max-credits'?: string;
  webhook?: string;
  language?: string;
}): MonitorBody {
  const urls = values.url ?? [];
  if (urls.length === 0) throw new UsageError('kumo monitors create needs --url (one per page to watch) or --file');
  if (urls.some((u) => u === '')) throw new UsageError('--url needs a value');
  const refs = values.ref ?? [];
  if (refs.length > 0 && refs.length !== urls.length)
    throw new UsageError(
      `--ref goes with --url in order: give one for each (${urls.length} --url, ${refs.length} --ref)`,
    );
  const badRef = refs.find((ref) => !isValidRef(ref));
  if (badRef !== undefined)
    throw new UsageError(`--ref ${JSON.stringify(badRef)}: printable text (no control characters), ≤ 128 characters`);
  if (values.every !== undefined && values.cron !== undefined)
    throw new UsageError('--every and --cron are exclusive: a monitor runs every N minutes or on a cron schedule');
  if (values.every === undefined && values.cron === undefined)
    throw new UsageError('kumo monitors create needs a schedule: --every MINUTES or --cron "EXPR"');
  const every = wholeNumber(values.every, 'every', 1, 43_200);
  if (values.webhook !== undefined && !/^whe_[0-9A-Za-z]+$/.test(values.webhook))
    throw new UsageError('--webhook takes a webhook endpoint id (whe_…)');
  const language = values.language;
  if (language !== undefined && !isLanguage(language)) throw new UsageError('--language must be ja or en');
  const watch = watchList(values.watch);
  const rules = values.rule !== undefined ? parseRules(values.rule, watch ?? defaultWatch) : undefined;
  const historyDays = wholeNumber(values['history-days'], 'history-days', 1, 365);
  const maxCredits = wholeNumber(values['max-credits'], 'max-credits', 1, Number.MAX_SAFE_INTEGER);
  const notify = {
    ...(values.webhook !== undefined ? { webhook: { endpoint_id: values.webhook } } : {}),
    ...(language !== undefined ? { language } : {}),
  };
  return {
    ...(values.name !== undefined ? { name: values.name } : {}),
    targets: urls.map((url, i) => (refs[i] === undefined ? { url } : { url, ref: refs[i] })),
    schedule: {
      ...(every !== undefined ? { every_minutes: every } : { cron: values.cron! }),
      ...(values.timezone !== undefined ? { timezone: values.timezone } : {}),
      ...(values['business-days'] ? { calendar: 'jp_business_days' as const } : {}),
    },
    ...(watch !== undefined ? { watch } : {}),
    ...(rules !== undefined ? { rules } : {}),
    ...(Object.keys(notify).length > 0 ? { notify } : {}),
    ...(historyDays !== undefined ? { history: { retain_days: historyDays } } : {}),
    ...(maxCredits !== undefined ? { max_credits_per_month: maxCredits } : {}),
  };
}

function isLanguage(value: string): value is MessageLanguage {
  return (messageLanguages as readonly string[]).includes(value);
}

function monitorPath(id: string, rest = ''): string {
  return `v1/monitors/${encodeURIComponent(id)}${rest}`;
}

function printJson(io: MonitorsIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The creation's Idempotency-Key: the SHA-256 of the body (key order aside), so one body makes one monitor. */
export function creationKey(body: unknown): string {
  return `kumo-cli-monitor-${createHash('sha256').update(canonicalJson(body)).digest('hex')}`;
}

async function create(args: string[], io: MonitorsIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      url: { type: 'string', multiple: true },
      ref: { type: 'string', multiple: true },
      every: { type: 'string' },
      cron: { type: 'string' },
      timezone: { type: 'string' },
      'business-days': { type: 'boolean' },
      name: { type: 'string' },
      watch: { type: 'string' },
      rule: { type: 'string', multiple: true },
      'history-days': { type: 'string' },
      'max-credits': { type: 'string' },
      webhook: { type: 'string' },
      language: { type: 'string' },
      file: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  let body: unknown;
  if (values.file !== undefined) {
    const also = bodyFlags.find((flag) => values[flag] !== undefined);
    if (also) throw new UsageError(`--file is the whole body: give --${also} in the file, not with --file`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await io.readFile(values.file));
    } catch {
      throw new UsageError(`cannot read ${values.file} (a UTF-8 JSON file)`);
    }
    try {
      body = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new UsageError(`${values.file} is not JSON: ${error instanceof Error ? error.message : 'unreadable'}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new UsageError(`${values.file} must hold one JSON object, a POST /v1/monitors body`);
  } else {
    body = createBody(values);
  }
  // The same command run again (after a lost answer, a Ctrl-C, a crash) gets the monitor it made the first time, as
  // `kumo batch` does; so the POST may be sent again when its answer is lost.
  const answer = await io.client.request<{ monitor: MonitorView }>('POST', 'v1/monitors', {
    body,
    headers: { 'idempotency-key': creationKey(body) },
    repeatable: true,
  });
  if (answer.headers.get('idempotent-replayed') === 'true') {
    io.stderr.write(
      `already made by an earlier run of this command: ${answer.body.monitor.id} (delete it first to make another)\n`,
    );
  }
  if (values.json) printJson(io, answer.body.monitor);
  else io.stdout.write(describeMonitor(answer.body.monitor));
  return 0;
}

/** The one MONITOR_ID of show, pause, resume and delete, and --json. */
function oneMonitor(action: string, args: string[]): { id: string; json: boolean } {
  const { values, positionals } = parse(args, { json: { type: 'boolean', default: false } }, true);
  if (positionals.length !== 1) throw new UsageError(`kumo monitors ${action} MONITOR_ID [--json]`);
  return { id: positionals[0]!, json: values.json };
}

async function show(args: string[], io: MonitorsIo): Promise<number> {
  const { id, json } = oneMonitor('show', args);
  const answer = await io.client.request<{ monitor: MonitorView }>('GET', monitorPath(id));
  if (json) printJson(io, answer.body.monitor);
  else io.stdout.write(describeMonitor(answer.body.monitor));
  return 0;
}

/** pause / resume: a PATCH that sets the status (sent again when its answer is lost: setting it twice is once). */
async function setStatus(args: string[], io: MonitorsIo, status: 'paused' | 'active'): Promise<number> {
  const { id, json } = oneMonitor(status === 'paused' ? 'pause' : 'resume', args);
  const answer = await io.client.request<{ monitor: MonitorView }>('PATCH', monitorPath(id), { body: { status } });
  if (json) printJson(io, answer.body.monitor);
  else io.stdout.write(describeMonitor(answer.body.monitor));
  return 0;
}

async function remove(args: string[], io: MonitorsIo): Promise<number> {
  const { id, json } = oneMonitor('delete', args);
  const answer = await io.client.request<{ deleted: boolean }>('DELETE', monitorPath(id));
  if (json) printJson(io, { id, deleted: answer.body.deleted });
  else io.stdout.write(`deleted ${id} and everything kept for it\n`);
  return 0;
}

/** The most GET /v1/monitors gives in one answer (it has no further pages). */
const listLimit = 100;

async function list(args: string[], io: MonitorsIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean', default: false } }, true);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const answer = await io.client.request<{ monitors: MonitorView[] }>('GET', `v1/monitors?limit=${listLimit}`);
  const monitors = answer.body.monitors;
  if (values.json) printJson(io, monitors);
  else for (const monitor of monitors) io.stdout.write(`${monitorLine(monitor)}\n`);
  if (!values.json && monitors.length === 0) io.stderr.write('no monitors\n');
  if (monitors.length === listLimit)
    io.stderr.write(`the newest ${listLimit} monitors (the API lists no more than that in one answer)\n`);
  return 0;
}

const isOpen = (check: CheckView) => check.state === 'queued' || check.state === 'running';

/**
 * Reads the monitor's checks (newest first, paged) until none of `first` is queued or running any more, or the time is
 * up. Each reading pages only as far as it needs to find the checks still open.
 */
async function waitForChecks(
  io: MonitorsIo,
  monitorId: string,
  first: CheckView[],
  timeoutS: number,
): Promise<{ checks: CheckView[]; timedOut: boolean }> {
  const byId = new Map(first.map((check) => [check.id, check]));
  const deadline = io.clock.now() + timeoutS * 1000;
  for (;;) {
    const open = [...byId.values()].filter(isOpen);
    if (open.length === 0) return { checks: [...byId.values()], timedOut: false };
    const left = deadline - io.clock.now();
    if (left <= 0) return { checks: [...byId.values()], timedOut: true };
    await io.clock.sleep(Math.min(io.pollMs ?? 1000, left));
    const wanted = new Set(open.map((check) => check.id));
    let cursor: string | null = null;
    do {
      const query: URLSearchParams = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
      const page: Answer<{ checks: CheckView[]; next_cursor: string | null }> = await io.client.request<{
        checks: CheckView[];
        next_cursor: string | null;
      }>('GET', monitorPath(monitorId, `/checks?${query.toString()}`));
      for (const check of page.body.checks) {
        if (!byId.has(check.id)) continue;
        byId.set(check.id, check);
        wanted.delete(check.id);
      }
      cursor = page.body.next_cursor;
    } while (cursor && wanted.size > 0);
  }
}

async function run(args: string[], io: MonitorsIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length !== 1)
    throw new UsageError('kumo monitors run MONITOR_ID [--wait [--timeout SECONDS]] [--json]');
  if (values.timeout !== undefined && !values.wait) throw new UsageError('--timeout needs --wait');
  const timeoutS = wholeNumber(values.timeout, 'timeout', 1, 86_400) ?? 120;
  const id = positionals[0]!;
  // Not repeated when the answer is lost (a POST): a second run would only be skipped (overlap), but it is not ours.
  const ran = await io.client.request<{ checks: CheckView[] }>('POST', monitorPath(id, '/run'));
  let checks = ran.body.checks;
  let timedOut = false;
  if (values.wait) {
    const open = checks.filter(isOpen).length;
    if (open > 0) io.stderr.write(`waiting for ${open} check${open === 1 ? '' : 's'} of ${id} (up to ${timeoutS} s)\n`);
    ({ checks, timedOut } = await waitForChecks(io, id, checks, timeoutS));
  }
  // The monitor too, for each target's ref, URL and values now (after the wait, those of these checks).
  const monitor =
    values.wait || !values.json
      ? (await io.client.request<{ monitor: MonitorView }>('GET', monitorPath(id))).body.monitor
      : null;
  if (values.json) printJson(io, monitor ? { checks, monitor } : { checks });
  else if (monitor) {
    const targets = new Map<string, TargetView>(monitor.targets.map((t) => [t.id, t]));
    for (const check of checks)
      io.stdout.write(`${checkLines(check, targets.get(check.target_id), io.language).join('\n')}\n`);
  }
  if (timedOut) {
    const open = checks.filter(isOpen).length;
    io.stderr.write(
      `still waiting after ${timeoutS} s: ${open} check${open === 1 ? '' : 's'} queued or running ` +
        `(they go on; see GET /v1/monitors/${id}/checks, or wait longer with --timeout)\n`,
    );
    return 1;
  }
  if (!values.wait) return 0;
  return checks.some((check) => check.state === 'failed') ? 1 : 0;
}

export async function monitorsCommand(argv: string[], io: MonitorsIo): Promise<number> {
  const [action, ...rest] = argv;
  if (action === 'create') return create(rest, io);
  if (action === 'list') return list(rest, io);
  if (action === 'run') return run(rest, io);
  if (action === 'show') return show(rest, io);
  if (action === 'pause') return setStatus(rest, io, 'paused');
  if (action === 'resume') return setStatus(rest, io, 'active');
  if (action === 'delete') return remove(rest, io);
  throw new UsageError(commandHelpText(monitorsHelp));
}
