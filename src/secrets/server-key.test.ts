// The server key: KUMO_SECRETS_KEY when set (strictly 32 bytes of base64), else the embedded data folder's file.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServerSecrets, parseSecretsKey } from './server-key.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kumo-secrets-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadServerSecrets', () => {
  it('embedded without the variable: creates secrets.key 0600 with 32 random bytes, and reuses it later', async () => {
    const dir = tempDir();
    const first = await loadServerSecrets({ key: '', dataDir: dir });
    const file = path.join(dir, 'secrets.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(file);
    expect(bytes.length).toBe(32);
    const sealed = first!.seal('whsec_x', 'whe_1');
    const second = await loadServerSecrets({ key: '', dataDir: dir });
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(second!.open(sealed, 'whe_1').toString()).toBe('whsec_x');
  });

  it('two starts at once agree on one key', async () => {
    const dir = tempDir();
    const [a, b] = await Promise.all([
      loadServerSecrets({ key: '', dataDir: dir }),
      loadServerSecrets({ key: '', dataDir: dir }),
    ]);
    expect(b!.open(a!.seal('v', 'c'), 'c').toString()).toBe('v');
  });

  it('uses KUMO_SECRETS_KEY when set, and makes no file', async () => {
    const dir = tempDir();
    const key = randomBytes(32);
    const secrets = await loadServerSecrets({ key: key.toString('base64'), dataDir: dir });
    expect(() => statSync(path.join(dir, 'secrets.key'))).toThrow();
    const other = await loadServerSecrets({ key: key.toString('base64url'), dataDir: null });
    expect(other!.open(secrets!.seal('v', 'c'), 'c').toString()).toBe('v');
  });

  it('shared mode without the variable: no secrets', async () => {
    await expect(loadServerSecrets({ key: '', dataDir: null })).resolves.toBeNull();
  });

  it('refuses a file of the wrong size (naming the file, not its bytes)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'secrets.key'), randomBytes(31), { mode: 0o600 });
    await expect(loadServerSecrets({ key: '', dataDir: dir })).rejects.toThrow(/secrets\.key must hold exactly 32/);
  });
});

describe('parseSecretsKey', () => {
  it('refuses anything but the base64 of 32 bytes, naming the variable and never echoing the value', () => {
    const bad = [
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      'not base64!!',
      'a'.repeat(44) + '*',
    ];
    for (const value of bad) {
      let message = '';
      try {
        parseSecretsKey(value);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('KUMO_SECRETS_KEY');
      expect(message).not.toContain(value);
    }
    expect(parseSecretsKey(Buffer.alloc(32, 7).toString('base64')).equals(Buffer.alloc(32, 7))).toBe(true);
  });
});
