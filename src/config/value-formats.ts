// The formats of single variables that a schema type cannot say: proxy lists, origins, retry schedules, the server
// key, loopback hosts. Each answers the value parsed or the problem in words (never repeating a secret value).
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

/** What Fastify may safely trust: never every hop (the leftmost X-Forwarded-For entry is the client's to forge). */
export type TrustProxy = false | number | string[];

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `KUMO_TRUST_PROXY` → false, a hop count, or a list of addresses/CIDRs; a message naming the problem otherwise. */
export function parseTrustProxy(value: string): TrustProxy | { problem: string } {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    return {
      problem:
        'KUMO_TRUST_PROXY=true would trust every X-Forwarded-For entry, which a client can forge; set the number of proxies in front of Kumo (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1)',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { problem: 'KUMO_TRUST_PROXY: a hop count must be at most 10' };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (proxyNames.has(entry)) continue;
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || rest.length > 0) {
      return { problem: `KUMO_TRUST_PROXY: "${entry}" is not an address, a CIDR, loopback, linklocal or uniquelocal` };
    }
  }
  return entries;
}

/** `KUMO_MCP_ALLOWED_ORIGINS` → normalized origins; anything that is not a bare http(s) origin is refused. */
export function parseOrigins(value: string): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '').toLowerCase())
      throw new ConfigError(
        `invalid configuration: KUMO_MCP_ALLOWED_ORIGINS: "${entry}" is not an origin like https://app.example.com`,
      );
    return url.origin;
  });
}

/** `KUMO_WEBHOOK_RETRY_SCHEDULE_MS` → the waits in ms; a message naming the problem when a part is not whole ms. */
export function parseRetrySchedule(value: string): number[] | { problem: string } {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d{1,9}$/.test(part))) {
    return { problem: 'KUMO_WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated whole milliseconds' };
  }
  return parts.map(Number);
}

/** Standard or url-safe base64, padding optional, decoding to exactly 32 bytes (Node's decoder skips bad characters). */
export function isBase64Of32Bytes(text: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return false;
  return Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64').length === 32;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
