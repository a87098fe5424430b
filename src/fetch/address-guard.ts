// Who may be contacted: the site's hosts, schemes and ports for every hop, and only public addresses in DNS.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { KumoError } from '../errors.js';
import type { FetchTarget } from './fetcher.js';
import { canonicalHost, isIpLiteral, isPublicAddress } from './url-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; the default is the system resolver (`dns.lookup`, all families). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

// A marker our lookup fails with, found again in whatever error undici wraps it in.
const forbiddenAddressCode = 'KUMO_EFORBIDDEN_ADDRESS';

class ForbiddenAddressError extends Error {
  readonly code = forbiddenAddressCode;
}

/** Wraps a resolver so a connection is only opened when every address is public (Happy Eyeballs may try any). */
export function guardedLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        if (all.length === 0) {
          callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (all.some((entry) => !isPublicAddress(entry.address))) {
          callback(new ForbiddenAddressError('non-public address'), '', 0);
          return;
        }
        const family = options.family;
        const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
        const usable = wanted === 0 ? all : all.filter((entry) => entry.family === wanted);
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** The scheme, credentials, port and host rules again, for the first URL and every redirect hop. */
export function checkDestination(url: URL, target: FetchTarget, what: string): URL {
  const forbidden = (why: string) => new KumoError('destination_forbidden', `${what} ${why}`);
  if (!target.allowedSchemes.includes(url.protocol)) throw forbidden('uses a scheme the site is not allowed');
  if (url.username !== '' || url.password !== '') throw forbidden('carries credentials');
  if (url.port !== '') throw forbidden('uses a non-default port');
  if (isIpLiteral(url.hostname)) throw forbidden('names an IP address');
  const host = canonicalHost(url);
  if (!target.allowedHosts.includes(host)) throw forbidden("is outside the site's hosts");
  const next = new URL(url.href);
  if (next.hostname !== host) next.hostname = host;
  next.hash = '';
  return next;
}

export function forbiddenAddress(): KumoError {
  // Never name the address: that would turn the API into a map of the network behind it.
  return new KumoError('destination_forbidden', "the site's host resolved to a non-public address");
}

/** Whether a connection failed because our lookup refused a non-public address. */
export function hasForbiddenAddress(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === forbiddenAddressCode) return true;
    if (e instanceof AggregateError && e.errors.some(hasForbiddenAddress)) return true;
  }
  return false;
}
