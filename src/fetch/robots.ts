// robots.txt per RFC 9309: a small parser and matcher, and the cache that keeps each host's answer up to 24 h.

/** What one robots.txt (or its absence) means for our user-agent at one origin. */
export interface RobotsRules {
  /** Whether a path (with its query) may be fetched. */
  allows(pathAndQuery: string): boolean;
  /** The group's Crawl-delay in ms (non-standard, honoured as a floor on spacing); 0 when none. */
  readonly crawlDelayMs: number;
  /** Set when robots.txt could not be fetched: the epoch ms until which the host is left alone before a new try. */
  readonly unreachableUntil?: number;
}

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

/** RFC 9309 §2.5: parsers must read at least 500 KiB; more is not read at all. */
export const robotsParseLimitBytes = 500 * 1024;

/**
 * Crawl-delay becomes the host's spacing, shared by every caller, so a long one shuts the host off for all of them
 * (and a day of spacing would make every Retry-After an hour). A minute is already more than any site we serve asks
 * for; longer values are read as a minute.
 */
export const maxCrawlDelayMs = 60_000;

class MatcherRules implements RobotsRules {
  readonly #rules: Rule[];
  readonly crawlDelayMs: number;

  constructor(rules: Rule[], crawlDelayMs: number) {
    this.#rules = rules;
    this.crawlDelayMs = crawlDelayMs;
  }

  allows(pathAndQuery: string): boolean {
    const target = normalizePath(pathAndQuery);
    // §2.2.2: /robots.txt itself is always allowed.
    if (target === '/robots.txt') return true;
    let best: Rule | null = null;
    for (const rule of this.#rules) {
      if (!rule.regex.test(target)) continue;
      // The most octets wins; on a tie between allow and disallow, allow (§2.2.2).
      if (
        best === null ||
        rule.pattern.length > best.pattern.length ||
        (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
      ) {
        best = rule;
      }
    }
    return best === null || best.allow;
  }
}

/** Access to everything: robots.txt is missing (4xx) or unusable in a way RFC 9309 calls "unavailable". */
export const allowAll: RobotsRules = new MatcherRules([], 0);

/** Access to nothing: robots.txt is unreachable (5xx, network error, timeout); RFC 9309 §2.3.1.3. */
export const disallowAll: RobotsRules = {
  allows: (pathAndQuery) => normalizePath(pathAndQuery) === '/robots.txt',
  crawlDelayMs: 0,
};

/** disallowAll, remembering until when: the caller is told the site is unreachable, not that it said no. */
export function unreachableUntil(until: number): RobotsRules {
  return { allows: (pathAndQuery) => disallowAll.allows(pathAndQuery), crawlDelayMs: 0, unreachableUntil: until };
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelayMs: number | null;
}

/**
 * Parses robots.txt bytes for the given product token (e.g. `KumoBot`): the groups naming it (case-insensitively)
 * are merged; without any, the `*` groups are; without those, everything is allowed. Only the first 500 KiB count.
 */
export function parseRobots(body: Uint8Array, productToken: string): RobotsRules {
  let bytes = body;
  if (bytes.length > robotsParseLimitBytes) {
    bytes = bytes.subarray(0, robotsParseLimitBytes);
    // A line cut in half at the limit could turn `Disallow: /private` into `Disallow: /`; drop it.
    const lastNewline = bytes.lastIndexOf(0x0a);
    if (lastNewline !== -1) bytes = bytes.subarray(0, lastNewline);
  }
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);

  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      // Consecutive user-agent lines share one group; one after rules starts a new group.
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelayMs: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (key === 'allow' || key === 'disallow') {
      // An empty Disallow matches nothing; an empty Allow likewise.
      if (value === '') continue;
      const pattern = normalizePattern(value);
      current.rules.push({ allow: key === 'allow', pattern, regex: patternToRegex(pattern) });
    } else if (key === 'crawl-delay') {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds > 0) {
        current.crawlDelayMs = Math.min(maxCrawlDelayMs, Math.round(seconds * 1000));
      }
    }
  }

  const token = productToken.toLowerCase();
  const named = groups.filter((group) => group.agents.some((agent) => agentToken(agent) === token));
  const chosen = named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
  if (chosen.length === 0) return allowAll;
  const rules = chosen.flatMap((group) => group.rules);
  const crawlDelayMs = Math.max(0, ...chosen.map((group) => group.crawlDelayMs ?? 0));
  return new MatcherRules(rules, crawlDelayMs);
}

/** The product token of a User-Agent string: `KumoBot/0.1 (+https://…)` → `kumobot`. */
export function productTokenOf(userAgent: string): string {
  return agentToken(userAgent.toLowerCase());
}

function agentToken(agent: string): string {
  return /^[a-z_-]*/i.exec(agent.trim())![0].toLowerCase();
}

/** Percent-encodes what a URL path would encode, and upper-cases escapes, so patterns and paths compare as octets. */
function normalizePattern(value: string): string {
  const encoded = value.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  return upperEscapes(encoded.startsWith('/') || encoded.startsWith('*') ? encoded : `/${encoded}`);
}

function normalizePath(pathAndQuery: string): string {
  const encoded = pathAndQuery.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  return upperEscapes(encoded === '' ? '/' : encoded);
}

function upperEscapes(text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/** `*` is any run of characters; a final `$` anchors the end; everything else is literal (§2.2.3). */
function patternToRegex(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  // Runs of `*` collapse to one, so hostile patterns cannot build catastrophic regexes.
  const source = body
    .replace(/\*+/g, '*')
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`, 's');
}

/** One cached answer and when it stops being valid. */
export interface RobotsCacheEntry {
  rules: RobotsRules;
  expiresAt: number;
}

/** Where robots answers are kept between fetches, keyed by origin (`https://host`). */
export interface RobotsCache {
  get(origin: string, now: number): RobotsRules | undefined;
  set(origin: string, entry: RobotsCacheEntry): void;
}

/** A bounded in-process cache: each instance fetches robots.txt itself, at most once per host per TTL. */
export class InMemoryRobotsCache implements RobotsCache {
  readonly #entries = new Map<string, RobotsCacheEntry>();
  readonly #maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.#maxEntries = maxEntries;
  }

  get(origin: string, now: number): RobotsRules | undefined {
    const entry = this.#entries.get(origin);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(origin);
      return undefined;
    }
    return entry.rules;
  }

  set(origin: string, entry: RobotsCacheEntry): void {
    this.#entries.delete(origin);
    // Insertion order is age order: the oldest entry goes first when full.
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(origin, entry);
  }
}
