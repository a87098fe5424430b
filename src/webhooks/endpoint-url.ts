// The registration check of a webhook endpoint URL: https, bounded, no credentials, and a host that resolves publicly.
import { KumoError } from '../errors.js';
import { defaultResolver, type Resolver } from '../fetch/address-guard.js';
import type { ConnectToMap } from '../fetch/connect-to.js';
import { canonicalHost, isIpLiteral, isPublicAddress, maxUrlLength } from '../fetch/url-policy.js';

// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Every refusal is 400 `invalid_url` (docs/api.md, Webhook endpoints): `destination_forbidden` is the scrape's 502 (a
 * target that turned out private mid-call), while here the caller's own input is at fault. Details name the rule,
 * never the URL or the addresses it resolved to (that would map the network behind Kumo).
 */
function invalid(detail: string): KumoError {
  return new KumoError('invalid_url', detail, { body: { field: 'url' } });
}

export interface EndpointUrlPolicy {
  /** Operator mappings (KUMO_CONNECT_TO): a mapped host is allowed without resolving it, as for sites. */
  connectTo: ConnectToMap;
  /** Replaces DNS (tests). */
  resolve?: Resolver;
}

/** The URL to store (canonical host, no fragment), or a KumoError invalid_url. */
export async function checkEndpointUrl(input: string, policy: EndpointUrlPolicy): Promise<URL> {
  if (typeof input !== 'string' || input.trim() === '') throw invalid('url must be a non-empty string');
  if (input.length > maxUrlLength) throw invalid(`url is longer than ${maxUrlLength} characters`);
  if (controlChars.test(input)) throw invalid('url contains control characters');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:') throw invalid('a webhook endpoint must be an https URL');
  if (url.username !== '' || url.password !== '') throw invalid('url must not contain credentials (userinfo)');
  if (isIpLiteral(url.hostname)) throw invalid('IP addresses are not accepted; use a host name');
  const host = canonicalHost(url);
  if (host === '') throw invalid('url has no valid host name');
  if (host !== url.hostname) url.hostname = host;
  url.hash = '';
  if (url.href.length > maxUrlLength) throw invalid(`url is longer than ${maxUrlLength} characters once encoded`);
  if (policy.connectTo.has(host)) return url;
  let addresses: { address: string }[];
  try {
    addresses = await (policy.resolve ?? defaultResolver)(host);
  } catch {
    throw invalid("the endpoint's host name does not resolve");
  }
  if (addresses.length === 0) throw invalid("the endpoint's host name does not resolve");
  // Every address, as at connect time: Happy Eyeballs may try any of them.
  if (addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw invalid("the endpoint's host resolves to a non-public address (loopback, private, link-local or metadata)");
  }
  return url;
}
