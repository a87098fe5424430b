// Parses the operator's KUMO_CONNECT_TO override: which real hosts are served by which local origin.

/** Canonical host (lower-case, no trailing dot, punycode) → the origin its requests connect to. */
export type ConnectToMap = ReadonlyMap<string, URL>;

/**
 * `host=http://127.0.0.1:PORT,host2=https://origin.example` → Map. An empty string gives an empty map.
 * Throws a plain Error naming the bad entry; config validation reports it.
 */
export function parseConnectTo(spec: string): ConnectToMap {
  const map = new Map<string, URL>();
  for (const raw of spec.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new Error(`KUMO_CONNECT_TO: "${entry}" is not host=origin`);
    const hostText = entry.slice(0, eq).trim();
    const originText = entry.slice(eq + 1).trim();
    const host = hostOf(hostText);
    if (host === null) throw new Error(`KUMO_CONNECT_TO: "${hostText}" is not a host name`);
    let origin: URL;
    try {
      origin = new URL(originText);
    } catch {
      throw new Error(`KUMO_CONNECT_TO: "${originText}" (for ${host}) is not an absolute http:// or https:// URL`);
    }
    if (origin.protocol !== 'http:' && origin.protocol !== 'https:') {
      throw new Error(`KUMO_CONNECT_TO: the origin for ${host} must be http:// or https://`);
    }
    if (origin.username !== '' || origin.password !== '') {
      throw new Error(`KUMO_CONNECT_TO: the origin for ${host} must not carry credentials`);
    }
    // Only the authority is used; a path, query or fragment would silently be dropped, so refuse it.
    if (origin.pathname !== '/' || origin.search !== '' || origin.hash !== '' || /[?#]/.test(originText)) {
      throw new Error(`KUMO_CONNECT_TO: the origin for ${host} must have no path, query or fragment`);
    }
    if (map.has(host)) throw new Error(`KUMO_CONNECT_TO: ${host} is mapped twice`);
    map.set(host, new URL(origin.origin));
  }
  return map;
}

/** The canonical form of a host as written by the operator, or null when it is not a plain host name. */
function hostOf(text: string): string | null {
  if (text === '' || /[/\s@:?#]/.test(text)) return null;
  try {
    const url = new URL(`http://${text}/`);
    const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
    return host === '' ? null : host;
  } catch {
    return null;
  }
}
