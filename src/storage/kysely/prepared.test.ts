// Prepared queries: the SQL and parameters Kysely would build per call, bound from arguments, on a real database.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../sqlite/sqlite-storage.js';
import type { KyselyStorage } from './kysely-storage.js';
import { PreparedQuery, preparedFor, slot } from './prepared.js';

let storage: KyselyStorage;
beforeAll(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
});
afterAll(() => storage.close());

describe('PreparedQuery', () => {
  it('compiles to the same SQL as the builder, binding each argument where its slot stood (repeats and constants too)', () => {
    const build = (subject: string, period: string, cost: number) =>
      storage.db
        .updateTable('credit_counters')
        .set((eb) => ({ reserved: eb('reserved', '+', cost), used: 0 }))
        .where('subject', '=', subject)
        .where('period', '=', period)
        .where(sql<boolean>`used + reserved + ${cost} <= 10`);
    const prepared = new PreparedQuery<never, [string, string, number]>(3, build);
    const direct = build('account:a', '2026-11', 3).compile();
    expect(prepared.sql).toBe(direct.sql);
    const seen: unknown[][] = [];
    const runner = {
      executeQuery: <R>(query: { parameters: readonly unknown[] }) => {
        seen.push([...query.parameters]);
        return Promise.resolve({ rows: [] as R[] });
      },
    };
    void prepared.execute(runner, 'account:a', '2026-11', 3);
    expect(seen[0]).toEqual([...direct.parameters]);
  });

  it('refuses a builder that leaves an argument unbound', () => {
    expect(
      () =>
        new PreparedQuery<never, [string, string]>(2, (subject) =>
          storage.db.selectFrom('credit_counters').select('used').where('subject', '=', subject),
        ),
    ).toThrow('binds 1 of its 2 arguments');
  });

  it('runs on the database and in a transaction: rows, first row, rows changed', async () => {
    const insert = new PreparedQuery<never, [string, string, number]>(3, (subject, period, used) =>
      storage.db
        .insertInto('credit_counters')
        .values({ subject, period, used, reserved: 0 })
        .onConflict((oc) => oc.columns(['subject', 'period']).doNothing()),
    );
    const read = new PreparedQuery<{ used: number }, [string, string]>(2, (subject, period) =>
      storage.db
        .selectFrom('credit_counters')
        .select('used')
        .where('subject', '=', subject)
        .where('period', '=', period),
    );
    expect(await insert.changed(storage.db, 'key:prepared', '2026-11', 7)).toBe(1);
    expect(await insert.changed(storage.db, 'key:prepared', '2026-11', 9)).toBe(0);
    await storage.db.transaction().execute(async (trx) => {
      expect(await read.first(trx, 'key:prepared', '2026-11')).toEqual({ used: 7 });
    });
    expect(await read.first(storage.db, 'key:absent', '2026-11')).toBeUndefined();
    // A value that merely looks like a slot is bound as the text it is.
    expect(await read.first(storage.db, slot(0), '2026-11')).toBeUndefined();
  });

  it('preparedFor builds a shape once per dialect and key, and a transaction shares its database’s', async () => {
    let builds = 0;
    const build = (subject: string) => {
      builds += 1;
      return storage.db.selectFrom('credit_counters').select('used').where('subject', '=', subject);
    };
    const first = preparedFor<{ used: number }, [string]>(storage.db, 'test:counters', 1, build);
    const again = await storage.db
      .transaction()
      .execute(async (tx) => preparedFor<{ used: number }, [string]>(tx, 'test:counters', 1, build));
    expect(again).toBe(first);
    expect(builds).toBe(1);
    const other = await createSqliteStorage({ path: ':memory:' });
    try {
      expect(preparedFor<{ used: number }, [string]>(other.db, 'test:counters', 1, build)).not.toBe(first);
      expect(builds).toBe(2);
    } finally {
      await other.close();
    }
    expect(await first.first(storage.db, 'nobody')).toBeUndefined();
  });
});
