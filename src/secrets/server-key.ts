// Where the server key comes from: KUMO_SECRETS_KEY, else (embedded only) `<data dir>/secrets.key`, made on first start.
import { randomBytes } from 'node:crypto';
import { chmod, link, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AesGcmSecrets } from './aes-gcm-secrets.js';
import { secretsKeyVariable } from './secret-box.js';

export { secretsKeyVariable };

const keyBytes = 32;

/** A configuration mistake about the key; its message names the variable or file, never the key. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

/**
 * The 32 bytes of a base64 KUMO_SECRETS_KEY, or a SecretsKeyError. Strict base64 (standard or url-safe alphabet,
 * padding optional): Node's decoder skips bad characters silently, so a typo would otherwise yield another key.
 */
export function parseSecretsKey(text: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    throw new SecretsKeyError(`${secretsKeyVariable} must be base64 (for example: openssl rand -base64 32)`);
  }
  const key = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  if (key.length !== keyBytes) {
    throw new SecretsKeyError(
      `${secretsKeyVariable} must be the base64 of exactly ${keyBytes} bytes (openssl rand -base64 32), got ${key.length}`,
    );
  }
  return key;
}

export interface ServerKeySource {
  /** KUMO_SECRETS_KEY as configured; '' = unset. */
  key: string;
  /** Embedded mode's data folder, where `secrets.key` is made when `key` is unset; null in shared mode (no file). */
  dataDir: string | null;
}

/**
 * The server key's Secrets, or null in shared mode without KUMO_SECRETS_KEY (batches and webhooks then answer 503).
 * Embedded mode without the variable uses `secrets.key` in the data folder, created 0600 with 32 random bytes the
 * first time, reused afterwards.
 */
export async function loadServerSecrets(source: ServerKeySource): Promise<AesGcmSecrets | null> {
  if (source.key.trim() !== '') return withKey(parseSecretsKey(source.key));
  if (source.dataDir === null) return null;
  const file = path.join(source.dataDir, 'secrets.key');
  const made = randomBytes(keyBytes);
  // Written whole to a private temporary name, then linked into place: link() fails when the key exists, so two
  // processes starting at once agree on one key, and no reader ever sees a half-written file.
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(made);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask may have narrowed the mode; it must never be wider than owner-only.
    await chmod(temporary, 0o600);
    try {
      await link(temporary, file);
      return withKey(made);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    made.fill(0);
    await unlink(temporary).catch(() => undefined);
  }
  const stored = await readFile(file);
  if (stored.length !== keyBytes) {
    throw new SecretsKeyError(`${file} must hold exactly ${keyBytes} bytes (it was made by Kumo; restore it)`);
  }
  return withKey(stored);
}

function withKey(key: Buffer): AesGcmSecrets {
  const secrets = new AesGcmSecrets(key);
  key.fill(0);
  return secrets;
}
