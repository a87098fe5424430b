// API key secrets: `kumo_live_` + 256 random bits in base62 + a CRC32 checksum; only the SHA-256 hash is stored.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const keyPrefix = 'kumo_live_';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 43 base62 digits hold any 256-bit number (62^43 > 2^256); 6 hold any CRC32 (62^6 > 2^32).
const bodyChars = 43;
const checksumChars = 6;
const keyPattern = new RegExp(`^${keyPrefix}([0-9A-Za-z]{${bodyChars}})([0-9A-Za-z]{${checksumChars}})$`);

function toBase62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = base62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out;
}

function checksumOf(prefixAndBody: string): string {
  return toBase62(BigInt(crc32(prefixAndBody)), checksumChars);
}

/** A new secret. Shown to its owner once; keep only `hashKey(secret)`. */
export function generateKey(): string {
  const body = toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), bodyChars);
  return `${keyPrefix}${body}${checksumOf(keyPrefix + body)}`;
}

/**
 * True for a string that could be a key we issued. A typo or a random string fails the checksum offline, so junk
 * never costs a database lookup (GitHub's token format does the same for secret scanners).
 */
export function isWellFormedKey(secret: string): boolean {
  const match = keyPattern.exec(secret);
  return match !== null && checksumOf(keyPrefix + match[1]!) === match[2];
}

/**
 * SHA-256 hex. A fast unsalted hash is right here because keys carry 256 random bits: there is nothing to brute
 * force, and lookup by hash means no secret is ever compared in application code.
 */
export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * The non-secret start shown in listings: `kumo_live_` + 4 characters (24 of 256 bits). For a bootstrap secret
 * of some other shape, whose entropy we cannot know, only its first 4 characters.
 */
export function displayPrefix(secret: string): string {
  if (isWellFormedKey(secret)) return secret.slice(0, keyPrefix.length + 4);
  return `${secret.slice(0, 4)}…`;
}
