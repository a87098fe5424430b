// Caller credentials carried in a URL's parameters (e.g. e-Stat `appId`): redacted before a URL is stored, logged or
// echoed, and their values read once, for the checks that no body we keep or serve repeats one.

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
  const secrets = nameSet(secretQueryParams);
  return rewritePairs(url, (rawName, pair) =>
    secrets.has(decodedName(rawName)) ? `${rawName}=${redactedValue}` : pair,
  );
}

/**
 * The values of a URL's credential parameters, read from every place `redactUrl` redacts and decoded as the target
 * decodes them (`+` and percent escapes), trimmed; only those of at least `minLength` characters, long enough to
 * recognise inside a body without matching ordinary text. Used to make sure no recorded or served string echoes one.
 */
export function credentialValues(url: URL, secretQueryParams: readonly string[], minLength: number): string[] {
  const secrets = nameSet(secretQueryParams);
  const values = new Set<string>();
  rewritePairs(url, (rawName, pair) => {
    const eq = pair.indexOf('=');
    if (eq !== -1 && secrets.has(decodedName(rawName))) {
      const value = decodedValue(pair.slice(eq + 1)).trim();
      if (value.length >= minLength) values.add(value);
    }
    return pair;
  });
  return [...values];
}

function nameSet(names: readonly string[]): ReadonlySet<string> {
  return new Set(names.map((name) => name.toLowerCase()));
}

/** Rebuilds the URL's text with every `name=value` pair (in the places above) passed through `pair`. */
function rewritePairs(url: URL, pair: (rawName: string, text: string) => string): string {
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
  const rewrittenPath = path
    .split('/')
    .map((segment) => rewriteEach(segment, /(;)/, pair, true))
    .join('/');

  let out = origin + rewrittenPath;
  if (query !== null) out += `?${rewriteEach(query, /([&;])/, pair, false)}`;
  if (fragment !== null) out += `#${rewriteEach(fragment, /([&;?/])/, pair, false)}`;
  return out;
}

/** Splits on the separators (kept) and passes each pair through `pair`. */
function rewriteEach(
  text: string,
  separators: RegExp,
  pair: (rawName: string, text: string) => string,
  skipFirst: boolean,
): string {
  const parts = text.split(separators);
  return parts
    .map((part, i) => {
      // Odd indexes are the separators themselves; a path segment's first part is the segment, not a parameter.
      if (i % 2 === 1 || (skipFirst && i === 0)) return part;
      const eq = part.indexOf('=');
      return pair(eq === -1 ? part : part.slice(0, eq), part);
    })
    .join('');
}

/** A value as the target reads it: `+` is a space, escapes decoded; a malformed escape keeps the raw text. */
function decodedValue(raw: string): string {
  const value = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
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
