// Many monitors at once, straight into the tables (one target each): the scheduler's scale test and bench/monitors.ts
// need 10,000, which MonitorStore.create (a transaction per monitor) would take a minute to make on PostgreSQL.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { KumoDatabase } from '../../src/storage/kysely/schema.js';
import type { MonitorSchedule } from '../../src/monitors/model.js';
import { newId } from '../../src/accounts/ids.js';
import { emptyTargetState } from '../../src/monitors/model.js';
import { jitterSeconds, nextRunAt } from '../../src/monitors/schedule.js';

export interface BulkMonitor {
  accountId: string;
  /** The one target's host. */
  host: string;
  schedule: MonitorSchedule;
  /** Made (and anchored) at this time; its first run is the schedule's after it, as MonitorService.create sets it. */
  createdAt: Date;
  /** Next due at the schedule's first run after this time instead (a monitor made earlier, past runs done). */
  after?: Date;
  /** Next due at this time instead (a bench's stampede); later runs follow the schedule. */
  dueAt?: Date;
}

export interface InsertedMonitor {
  id: string;
  targetId: string;
  accountId: string;
  host: string;
  jitterS: number;
  nextRunAt: string;
}

/** Rows per INSERT: 25 columns each, well inside PostgreSQL's 65,535 parameters and SQLite's 32,766. */
const chunk = 1_000;

/**
 * Inserts the monitors and their targets as the store's `create` writes them (active, jitter and next run from
 * schedule.ts, a fresh target state), in chunks, each chunk in one transaction. Their sealed data key and URL are
 * random bytes: a claim never opens them.
 */
export async function insertMonitors(
  db: Kysely<KumoDatabase>,
  monitors: readonly BulkMonitor[],
): Promise<InsertedMonitor[]> {
  const state = JSON.stringify(emptyTargetState);
  const sealed = new Uint8Array(randomBytes(60));
  const made: InsertedMonitor[] = [];
  for (let i = 0; i < monitors.length; i += chunk) {
    const rows = monitors.slice(i, i + chunk).map((monitor, n) => {
      const at = monitor.createdAt.getTime();
      const id = newId('mon', at);
      const jitterS = jitterSeconds(id, monitor.schedule);
      const due =
        monitor.dueAt ?? nextRunAt(monitor.schedule, id, monitor.createdAt, monitor.after ?? monitor.createdAt);
      const inserted: InsertedMonitor = {
        id,
        targetId: newId('tgt', at),
        accountId: monitor.accountId,
        host: monitor.host,
        jitterS,
        nextRunAt: due.toISOString(),
      };
      made.push(inserted);
      return { monitor, inserted, index: i + n };
    });
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('monitors')
        .values(
          rows.map(({ monitor, inserted }) => ({
            id: inserted.id,
            account_id: inserted.accountId,
            key_id: 'key_bulk',
            name: null,
            status: 'active' as const,
            paused_reason: null,
            schedule: JSON.stringify(monitor.schedule),
            jitter_s: inserted.jitterS,
            anchor_at: monitor.createdAt.toISOString(),
            next_run_at: inserted.nextRunAt,
            watch: JSON.stringify(['price', 'availability']),
            rules: '[]',
            noise: JSON.stringify({ price_abs_yen: 1, confirm_checks: 1, cooldown_minutes: 0, max_alerts_per_day: 20 }),
            alert_after: 3,
            notify: JSON.stringify({ webhook: null, language: 'ja', channels: [] }),
            channels_sealed: null,
            data_key_sealed: sealed,
            retain_days: null,
            max_credits_per_month: null,
            credits_period: null,
            checks_per_day: 24,
            created_at: monitor.createdAt.toISOString(),
            updated_at: monitor.createdAt.toISOString(),
          })),
        )
        .execute();
      await tx
        .insertInto('monitor_targets')
        .values(
          rows.map(({ inserted, index }) => ({
            id: inserted.targetId,
            monitor_id: inserted.id,
            account_id: inserted.accountId,
            target_index: 0,
            url: `https://${inserted.host}/item/${index}`,
            url_sealed: sealed,
            ref: `SKU-${index}`,
            host: inserted.host,
            site_id: 'bench',
            page_type: 'item',
            route: 'http',
            cost_max: 1,
            state,
          })),
        )
        .execute();
    });
  }
  return made;
}
