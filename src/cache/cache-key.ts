// What makes two calls the same call for the cache: pure, so the key is the same on every instance and in every test.
import { createHash } from 'node:crypto';

export interface CacheKeyParts {
  accountId: string;
  /** The full target URL as asked (its query included, credentials too: hashed, never stored). */
  url: string;
  pageType: string;
  route: string;
  extractorId: string;
  extractorVersion: number;
  /** The params that change what `data` holds; the cache only answers `html_json` without HTML outputs. */
  mode: 'html_json';
}

/** Bumped when what an entry holds changes shape: every older entry then misses. */
const keyFormat = 'kumo-cache/1';

/**
 * SHA-256 (hex) of the parts, as a JSON array so that no two different sets of parts hash alike. The account is in
 * the key, so one account's key never names another's entry; a new extractor version is a new key, so it misses.
 */
export function cacheKeyOf(parts: CacheKeyParts): string {
  const fields = [
    keyFormat,
    parts.accountId,
    parts.url,
    parts.pageType,
    parts.route,
    parts.extractorId,
    parts.extractorVersion,
    parts.mode,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
