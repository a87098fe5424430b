// Removes caller credentials carried in query parameters (e.g. e-Stat `appId`) before a URL is stored, logged or echoed.

/** What a redacted value becomes: the name stays, so the reader sees that a credential was sent. */
export const redactedValue = 'REDACTED';

/**
 * Every place a server may read `name=value` from: query pairs split on `&` or `;`, matrix parameters (`;name=`) in
 * any path segment, and the fragment (which some clients put a query in). A name matches whatever its case or
 * percent-encoding (`APPID`, `app%49d`), because the target decodes and may compare names case-insensitively.
 * Works on the serialized text, not URLSearchParams, so nothing else in the URL is re-encoded.
 */
export function redactUrl(url: URL, secretQueryParams: readonly string[]): string {
  if (secretQueryParams.length === 0) return url.href;
  const secrets = new Set(secretQueryParams.map((name) => name.toLowerCase()));
  const href = url.href;
  const hashAt = href.indexOf('#');
  const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt);
  const fragment = hashAt === -1 ? null : href.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const beforeQuery = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt === -1 ? null : beforeHash.slice(queryAt + 1);

  const pathStart = beforeQuery.indexOf('/', beforeQuery.indexOf('//') + 2);
  const origin = pathStart === -1 ? beforeQuery : beforeQuery.slice(0, pathStart);
  const path = pathStart === -1 ? '' : beforeQuery.slice(pathStart);
  const redactedPath = path
    .split('/')
    .map((segment) => redactPairs(segment, /(;)/, secrets, true))
    .join('/');

  let out = origin + redactedPath;
  if (query !== null) out += `?${redactPairs(query, /([&;])/, secrets, false)}`;
  if (fragment !== null) out += `#${redactPairs(fragment, /([&;?/])/, secrets, false)}`;
  return out;
}

/** Splits on the separators (kept), and replaces the value of every pair whose decoded name is a secret. */
function redactPairs(text: string, separators: RegExp, secrets: ReadonlySet<string>, skipFirst: boolean): string {
  const parts = text.split(separators);
  return parts
    .map((part, i) => {
      // Odd indexes are the separators themselves; a path segment's first part is the segment, not a parameter.
      if (i % 2 === 1 || (skipFirst && i === 0)) return part;
      const eq = part.indexOf('=');
      const rawName = eq === -1 ? part : part.slice(0, eq);
      if (!secrets.has(decodedName(rawName))) return part;
      return `${rawName}=${redactedValue}`;
    })
    .join('');
}

/** Percent-decodes (repeatedly, so `%2549` cannot hide `%49`) and lower-cases a parameter name. */
export function decodedName(raw: string): string {
  let name = raw.replaceAll('+', ' ');
  for (let i = 0; i < 3; i++) {
    const next = name.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === name) break;
    name = next;
  }
  return name.trim().toLowerCase();
}
