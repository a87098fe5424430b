// The start line about API keys: bootstrap account created or found, or how to make a first key when there is none.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts } from './accounts-service.js';
import { createKeyCommand, ensureStartKeys } from './start-keys.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';

let storage: KyselyStorage;
let accounts: Accounts;
let lines: Record<string, unknown>[];
const sink = () =>
  pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    }),
  );

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  accounts = new Accounts(storage);
  lines = [];
});
afterEach(async () => {
  await storage.close();
});

const secret = 'kumo_bootstrap_supersecret_0001';

describe('ensureStartKeys', () => {
  it('says the bootstrap account was created on the first start, and found on the next, never the secret', async () => {
    const first = await ensureStartKeys(accounts, { key: secret, plan: 'starter' }, sink());
    expect(first).toMatchObject({ kind: 'bootstrap', created: true, plan: 'starter' });
    const second = await ensureStartKeys(accounts, { key: secret, plan: 'starter' }, sink());
    expect(second).toMatchObject({ kind: 'bootstrap', created: false });
    expect(lines.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^bootstrap key: account acc_\w+ created on the starter plan \(key key_\w+\)$/),
      expect.stringMatching(/^bootstrap key: account acc_\w+ already exists, on the starter plan \(key key_\w+\)$/),
    ]);
    expect(lines[0]).toMatchObject({ level: 30, bootstrap: { created: true, plan: 'starter' } });
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('with no key at all, warns with the command that makes one; silent once an active key exists', async () => {
    expect(await ensureStartKeys(accounts, null, sink())).toEqual({ kind: 'none' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, api_keys: 0 });
    expect(lines[0]!.msg).toBe(
      'no API key exists yet: create one with `npm run -s kumo -- keys create --plan free` (same KUMO_DATA_DIR / ' +
        'DATABASE_URL as this server), or set KUMO_BOOTSTRAP_KEY',
    );
    expect(createKeyCommand).toBe('npm run -s kumo -- keys create --plan free');

    const made = await accounts.createKey({ plan: 'free' });
    lines = [];
    expect(await ensureStartKeys(accounts, null, sink())).toEqual({ kind: 'existing' });
    expect(lines).toEqual([]);
    // A revoked key cannot call the API: the hint comes back.
    await accounts.revokeKey(made.keyId);
    expect(await ensureStartKeys(accounts, null, sink())).toEqual({ kind: 'none' });
  });
});
