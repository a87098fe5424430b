// `kumo monitors` (dist/cli/kumo.js) against a real server (dist/main.js, embedded SQLite) whose dispatcher runs the
// checks on a local origin serving an ikebe-gakki item page under its real hostname: create from flags (and refusals:
// the API's as `code: detail`, the command line's as usage errors), list, and run --wait until the check completed with
// its price, then a price drop worded in Japanese under a Japanese locale; pause, resume, show and delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBatchWorld, type BatchWorld } from '../support/batch-world.js';
import { runKumo, type CliRun } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

let world: BatchWorld;
let key: string;

const itemPath = '/c/c-/kb/kb01/kb011427/750592';
const itemUrl = `https://www.ikebe-gakki.com${itemPath}`;

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const base = { KUMO_BASE_URL: world.instances[0]!.baseUrl, KUMO_API_KEY: key, LANG: 'en_US.UTF-8' };
  return runKumo(args, { ...base, ...env });
}

function servePrice(price: number): void {
  world.origin.route('GET', itemPath, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage({ price }),
  });
}

beforeAll(async () => {
  // A host spacing of 1 s rather than the tests' usual 0, so that the estimate has a fair share per host to print.
  world = await startBatchWorld({ mode: 'sqlite', env: { KUMO_HOST_MIN_INTERVAL_MS: '1000' } });
  ({ key } = await world.newKey('starter'));
  servePrice(12_800);
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('kumo monitors against the server', () => {
  it('creates a monitor, lists it, runs it with --wait to its price, and words a drop in Japanese', async () => {
    // A cron schedule whose next run is months away, so that no scheduled check overlaps the ones run here.
    const created = await cli([
      'monitors',
      'create',
      '--url',
      itemUrl,
      '--ref',
      'A-1',
      '--cron',
      '0 3 1 1 *',
      '--name',
      'ギター',
      '--watch',
      'price,availability',
      '--rule',
      'drop5:price:change_pct_lte:-5',
    ]);
    expect([created.code, created.err]).toEqual([0, '']);
    const id = /^(mon_[0-9A-Za-z]+) {2}ギター$/m.exec(created.out)?.[1];
    expect(id, created.out).toBeDefined();
    expect(created.out).toMatch(/^schedule {3}cron "0 3 1 1 \*", Asia\/Tokyo$/m);
    expect(created.out).toMatch(/^next run {3}\d{4}-01-01 03:\d\d JST$/m);
    expect(created.out).toContain(`  ikebe_gakki item  A-1  ${itemUrl}`);
    expect(created.out).toMatch(/^estimate {3}\d+ checks \/ month · \d+ credits \/ month at most \(within/m);
    expect(created.out).toMatch(/^host load {2}www\.ikebe-gakki\.com: [\d.]+ checks \/ day/m);

    // A second, from --every, as --json (the API's snake_case).
    const every = await cli(['monitors', 'create', '--url', itemUrl, '--every', '60', '--json']);
    expect(every.code, every.err).toBe(0);
    const second = JSON.parse(every.out) as { id: string; schedule: { every_minutes: number; next_run_at: string } };
    expect(second.schedule.every_minutes).toBe(60);
    expect(second.schedule.next_run_at).toMatch(/Z$/);

    const listed = await cli(['monitors', 'list']);
    expect(listed.code, listed.err).toBe(0);
    const lines = listed.out.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.startsWith(`${id!}  `))).toMatch(
      /^mon_\S+ {2}ギター {2}active {2}cron "0 3 1 1 \*" {2}next \d{4}-01-01 03:\d\d JST {2}A-1 not checked yet$/,
    );
    expect(lines.find((line) => line.startsWith(`${second.id}  `))).toMatch(/ {2}- {2}active {2}every 60 min {2}next /);

    const ran = await cli(['monitors', 'run', id!, '--wait']);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.err).toBe(`waiting for 1 check of ${id!} (up to 120 s)\n`);
    expect(ran.out).toMatch(new RegExp(`^chk_\\S+ {2}completed {2}1 credit {2}A-1 {2}${itemUrl}\n`));
    expect(ran.out).toContain('  no change\n  Now: ¥12,800 / In stock\n');

    servePrice(11_800);
    const dropped = await cli(['monitors', 'run', id!, '--wait', '--timeout', '60'], { LANG: 'ja_JP.UTF-8' });
    expect(dropped.code, dropped.err).toBe(0);
    expect(dropped.out).toMatch(/^chk_\S+ {2}completed {2}1クレジット {2}A-1 /);
    expect(dropped.out).toContain(
      '  価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）\n  現在: ¥11,800 / 在庫あり\n  ルール: drop5\n',
    );

    const after = await cli(['monitors', 'list']);
    expect(after.out).toMatch(new RegExp(`^${id!} .* {2}A-1 ¥11,800 in_stock$`, 'm'));
    const json = await cli(['monitors', 'list', '--json']);
    const monitors = JSON.parse(json.out) as { id: string; targets: { last: { price: number } | null }[] }[];
    expect(monitors.find((m) => m.id === id)!.targets[0]!.last!.price).toBe(11_800);

    const waitedJson = await cli(['monitors', 'run', id!, '--wait', '--json']);
    expect(waitedJson.code, waitedJson.err).toBe(0);
    const waited = JSON.parse(waitedJson.out) as {
      checks: { state: string; cost_units: number; changes: unknown[] }[];
      monitor: { id: string };
    };
    expect(waited.checks).toMatchObject([{ state: 'completed', cost_units: 1, changes: [] }]);
    expect(waited.monitor.id).toBe(id);

    // Paused, resumed, shown, deleted: each as the server has it after the command.
    const pausedRun = await cli(['monitors', 'pause', second.id]);
    expect(pausedRun.code, pausedRun.err).toBe(0);
    expect(pausedRun.out).toMatch(/^status {5}paused/m);
    const shown = await cli(['monitors', 'show', second.id, '--json']);
    expect(JSON.parse(shown.out)).toMatchObject({ id: second.id, status: 'paused' });
    const resumed = await cli(['monitors', 'resume', second.id, '--json']);
    expect(JSON.parse(resumed.out)).toMatchObject({ id: second.id, status: 'active' });
    const deleted = await cli(['monitors', 'delete', second.id]);
    expect([deleted.code, deleted.out]).toEqual([0, `deleted ${second.id} and everything kept for it\n`]);
    const gone = await cli(['monitors', 'show', second.id]);
    expect([gone.code, gone.err]).toEqual([1, 'not_found: no such monitor for this account\n']);
    const left = JSON.parse((await cli(['monitors', 'list', '--json'])).out) as { id: string }[];
    expect(left.map((m) => m.id)).toEqual([id]);
  }, 120_000);

  it("prints the API's refusals as code: detail (exit 1), the command line's as usage errors (exit 2)", async () => {
    const tooOften = await cli(['monitors', 'create', '--url', itemUrl, '--every', '5']);
    expect(tooOften).toEqual({
      code: 1,
      out: '',
      err: "monitor_limit_exceeded: every_minutes 5 is below the starter plan's minimum of 60 minutes\n",
    });
    const unsupported = await cli(['monitors', 'create', '--url', 'https://shop.example.com/item/1', '--every', '60']);
    expect(unsupported).toEqual({
      code: 1,
      out: '',
      err: 'site_not_supported: targets[0]: shop.example.com is not a supported site\n',
    });
    const unknown = await cli(['monitors', 'run', 'mon_0000000000000000000000000']);
    expect([unknown.code, unknown.err]).toEqual([1, 'not_found: no such monitor for this account\n']);

    const both = await cli(['monitors', 'create', '--url', itemUrl, '--every', '60', '--cron', '0 9 * * *']);
    expect([both.code, both.out]).toEqual([2, '']);
    expect(both.err).toContain('--every and --cron are exclusive');
    const noKey = await cli(['monitors', 'list'], { KUMO_API_KEY: '' });
    expect([noKey.code, noKey.err]).toEqual([
      2,
      'kumo monitors needs KUMO_API_KEY (a key allowed the monitor operation) and KUMO_BASE_URL\n',
    ]);
    const help = await cli(['monitors', '--help']);
    expect(help.code).toBe(0);
    for (const command of ['monitors create', 'monitors list', 'monitors run', 'monitors pause', 'monitors delete'])
      expect(help.out).toContain(`kumo ${command}`);
  }, 60_000);
});
