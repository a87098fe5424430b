// The first gate on a caller's URL, and the address policy every connection obeys (SSRF defence, research §1).
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type * as IpAddr from 'ipaddr.js';
import { KumoError } from '../errors.js';

// ipaddr.js is CommonJS (`export =`) and the project compiles without esModuleInterop, so it is required directly.
const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof IpAddr;

export const maxUrlLength = 2048;
// Percent-encoding can multiply the length of non-ASCII input; the serialized form gets its own, looser cap.
const maxSerializedUrlLength = 8192;

// WHATWG silently strips tab/CR/LF and trims C0 at the ends, so a prefix check on raw input would lie; refuse them.
// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u001f\u007f-\u009f]/;

function invalid(detail: string): KumoError {
  return new KumoError('invalid_url', detail, { body: { field: 'url' } });
}

/**
 * Parses a caller's URL into the one form every later step (site lookup, robots, politeness, fetch) uses:
 * absolute http(s), no userinfo, default port, a host name (never an IP literal), canonical host, no fragment.
 * Details name the rule broken, never the URL's parts (it may carry a caller's secret query parameters).
 */
export function parseTargetUrl(input: string): URL {
  if (typeof input !== 'string' || input.trim() === '') throw invalid('url must be a non-empty string');
  if (input.length > maxUrlLength) throw invalid(`url is longer than ${maxUrlLength} characters`);
  if (controlChars.test(input)) throw invalid('url contains control characters');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('only http and https URLs are accepted');
  if (url.username !== '' || url.password !== '') throw invalid('url must not contain credentials (userinfo)');
  if (url.port !== '') throw invalid('only the default port is accepted');
  if (isIpLiteral(url.hostname)) throw invalid('IP addresses are not accepted; use the site host name');
  const host = canonicalHost(url);
  if (host === '' || host.endsWith('.')) throw invalid('url has no valid host name');
  if (host !== url.hostname) url.hostname = host;
  url.hash = '';
  if (url.href.length > maxSerializedUrlLength) throw invalid('url is too long once encoded');
  return url;
}

/** Lower-case (WHATWG already did), punycode (likewise), one trailing dot stripped: the key for allowlists and limits. */
export function canonicalHost(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** True for a hostname WHATWG produced from an IP literal in any spelling (it rewrites numeric IPv4 forms). */
export function isIpLiteral(hostname: string): boolean {
  if (hostname.startsWith('[')) return true;
  const bare = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return isIP(bare) !== 0;
}

/**
 * Whether a resolved address may be connected to: only global unicast. `process()` unwraps IPv4-mapped IPv6 first,
 * so `::ffff:7f00:1` is judged as 127.0.0.1. Only pass resolver output, never caller text (`0x7f.1` parses too).
 */
export function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 0) return false;
  try {
    return ipaddr.process(ip).range() === 'unicast';
  } catch {
    return false;
  }
}
