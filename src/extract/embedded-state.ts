// Page state a site's web app embeds for its scripts (`__NEXT_DATA__`, `window.__INITIAL_STATE__ = {…}`, Amazon's
// `a-state` blocks), parsed as data. Never evaluated: anything that is not JSON after the assignment is skipped.
import type { HtmlPage } from '../normalize/page.js';

export interface EmbeddedStateQuery {
  /** The script element's id, e.g. `__NEXT_DATA__`. */
  id?: string;
  /** The script's type, e.g. `application/json`, `a-state`. */
  type?: string;
  /** The global an inline script assigns, e.g. `__INITIAL_STATE__` (matched with or without `window.`). */
  assigns?: string;
  /** Only blocks whose text contains this (cheap filter before parsing). */
  contains?: string;
}

/** Every parsed block matching the query, in document order. */
export function readEmbeddedStates(page: HtmlPage, query: EmbeddedStateQuery): unknown[] {
  const out: unknown[] = [];
  for (const script of page.scripts) {
    if (query.id !== undefined && script.id !== query.id) continue;
    if (query.type !== undefined && script.type !== query.type) continue;
    if (query.contains !== undefined && !script.text.includes(query.contains)) continue;
    const text = query.assigns !== undefined ? assignedValue(script.text, query.assigns) : script.text;
    if (text === null) continue;
    const value = parseJson(text);
    if (value !== undefined) out.push(value);
  }
  return out;
}

/** The first parsed block matching the query, or null. */
export function readEmbeddedState(page: HtmlPage, query: EmbeddedStateQuery): unknown {
  return readEmbeddedStates(page, query)[0] ?? null;
}

function assignedValue(text: string, name: string): string | null {
  const escaped = name.replace(/[$]/g, '\\$');
  const m = new RegExp(
    `(?:^|[\\s;])(?:(?:var|let|const)\\s+|window\\.|self\\.|window\\[["'])?${escaped}(?:["']\\])?\\s*=\\s*`,
  ).exec(text);
  if (!m) return null;
  const start = m.index + m[0].length;
  const end = endOfJsonValue(text, start);
  return end === null ? null : text.slice(start, end);
}

/** The end of the JSON object or array starting at `start` (strings and escapes respected); null when unbalanced. */
function endOfJsonValue(text: string, start: number): number | null {
  const open = text[start];
  if (open !== '{' && open !== '[') return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
