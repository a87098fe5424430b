// Sortable random ids (`acc_…`, `key_…`, `req_…`): ULID-shaped, so ids sort by creation time in listings and logs.
import { randomBytes } from 'node:crypto';

// Crockford base32: no I, L, O, U, so ids survive being read aloud or retyped.
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const timeChars = 10;
const randomChars = 16;

let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = alphabet[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

/**
 * `prefix_` + 26 characters: 48 bits of milliseconds then 80 random bits. Within one millisecond the random part
 * counts up, so ids made by one process are strictly increasing.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let random: bigint;
  if (now === lastTime && lastRandom < (1n << 80n) - 1n) {
    random = lastRandom + 1n;
  } else {
    random = BigInt(`0x${randomBytes(10).toString('hex')}`);
  }
  lastTime = now;
  lastRandom = random;
  return `${prefix}_${encode(BigInt(now), timeChars)}${encode(random, randomChars)}`;
}

/** Milliseconds since the epoch encoded in an id made by `newId`, or null if it is not one. */
export function idTime(id: string): number | null {
  const match = /^[a-z]+_([0-9A-HJKMNP-TV-Z]{26})$/.exec(id);
  if (!match) return null;
  let value = 0;
  for (const ch of match[1]!.slice(0, timeChars)) value = value * 32 + alphabet.indexOf(ch);
  return value;
}
