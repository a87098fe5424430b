// Small css-select helpers over the normalized tree: first match, its normalized text, attributes.
import { compile, selectAll, selectOne } from 'css-select';
import { hasChildren, isTag, isText, type AnyNode, type Element } from 'domhandler';
import { normalizeText } from '../normalize/text.js';

type CompiledQuery = ReturnType<typeof compile<AnyNode, Element>>;

export type Root = AnyNode | AnyNode[];

// Extractors use a fixed set of selectors: compiling each once saves a parse per query per page.
const compiled = new Map<string, { css: CompiledQuery; match: (el: Element) => boolean }>();
function compiledOf(selector: string) {
  let c = compiled.get(selector);
  if (!c) {
    const css = compile<AnyNode, Element>(selector);
    const names = requiredNames(selector);
    c = { css, match: names ? prefiltered(css, names) : css };
    compiled.set(selector, c);
  }
  return c;
}
function query(selector: string): CompiledQuery {
  return compiledOf(selector).css;
}
function matcher(selector: string): (el: Element) => boolean {
  return compiledOf(selector).match;
}

/**
 * The class names and id an element must carry to match `selector`: its subject (the rightmost compound) names them.
 * Null when there are none, or the selector is not plain enough to read them with certainty (quotes, escapes,
 * functional pseudo-classes, lists). A name may be cut short at a character outside [A-Za-z0-9_-]; a shorter name is a
 * weaker condition, never a wrong one.
 */
export function requiredNames(selector: string): { classes: string[]; id: string | null } | null {
  if (/[()"'\\,]/.test(selector)) return null;
  const subject =
    selector
      .trim()
      .split(/[\s>+~]+/)
      .pop() ?? '';
  const bare = subject.replace(/\[[^\]]*\]/g, '').replace(/::?[\w-]+/g, '');
  if (/[[\]:]/.test(bare)) return null;
  const classes = [...bare.matchAll(/\.([\w-]+)/g)].map((m) => m[1]!);
  const id = /#([\w-]+)/.exec(bare)?.[1] ?? null;
  return classes.length > 0 || id !== null ? { classes, id } : null;
}

/**
 * css-select's matcher behind a cheap test of the subject's class and id attributes: most elements of a page lack
 * the class a query names, and a substring test turns them away faster than its regular expression.
 */
function prefiltered(
  css: CompiledQuery,
  { classes, id }: { classes: string[]; id: string | null },
): (el: Element) => boolean {
  return (el) => {
    if (id !== null && !(el.attribs.id ?? '').includes(id)) return false;
    if (classes.length > 0) {
      const cls = el.attribs.class;
      if (cls === undefined) return false;
      for (const name of classes) if (!cls.includes(name)) return false;
    }
    return css(el);
  };
}

/**
 * css-select's own walk (findAll/findOne) keeps its stacks with shift/unshift, which costs more than the matching on
 * large pages; this is the same walk (the root's descendants in document order, `<template>` contents skipped, as
 * css-select does outside XML mode) with stacks that grow at the end. `match` sees every element; a true answer
 * stops the walk when `found` is null, else the element is collected and the walk goes on.
 */
function walk(root: AnyNode, match: (el: Element) => boolean, found: Element[] | null): Element | null {
  if (!hasChildren(root) || root.children.length === 0) return null;
  const lists: AnyNode[][] = [root.children];
  const positions: number[] = [0];
  let depth = 0;
  for (;;) {
    const list = lists[depth]!;
    const i = positions[depth]!;
    if (i >= list.length) {
      if (depth === 0) return null;
      depth--;
      continue;
    }
    positions[depth] = i + 1;
    const node = list[i]!;
    if (!isTag(node)) continue;
    if (match(node)) {
      if (!found) return node;
      found.push(node);
    }
    if (node.name !== 'template' && node.children.length > 0) {
      depth++;
      lists[depth] = node.children;
      positions[depth] = 0;
    }
  }
}

export function first(root: Root, selector: string): Element | null {
  // A list of roots is matched itself, not only below: css-select's rules for that are kept by calling it.
  if (Array.isArray(root)) return selectOne<AnyNode, Element>(query(selector), root);
  return walk(root, matcher(selector), null);
}

export function all(root: Root, selector: string): Element[] {
  if (Array.isArray(root)) return selectAll<AnyNode, Element>(query(selector), root);
  const found: Element[] = [];
  walk(root, matcher(selector), found);
  return found;
}

/** What `selectMany` found: each `first` query's first match, each `all` query's matches. */
export interface Selection<F extends string, A extends string = never> {
  first: Record<F, Element | null>;
  all: Record<A, Element[]>;
}

/**
 * Several queries answered in one walk of `root`: for each key of `spec.first` its first match, for each key of
 * `spec.all` every match in document order, exactly what `first` and `all` give. A page read with many scans of the
 * whole document is read with one; with no `all` queries the walk stops once every `first` query has its match.
 */
export function selectMany<F extends string, A extends string = never>(
  root: Root,
  spec: { first?: Readonly<Record<F, string>>; all?: Readonly<Record<A, string>> },
): Selection<F, A> {
  const firstKeys = Object.keys(spec.first ?? {}) as F[];
  const allKeys = Object.keys(spec.all ?? {}) as A[];
  const firsts = {} as Record<F, Element | null>;
  const alls = {} as Record<A, Element[]>;
  if (Array.isArray(root)) {
    for (const key of firstKeys) firsts[key] = first(root, spec.first![key]);
    for (const key of allKeys) alls[key] = all(root, spec.all![key]);
    return { first: firsts, all: alls };
  }
  const firstQueries = firstKeys.map((key) => matcher(spec.first![key]));
  const allQueries = allKeys.map((key) => matcher(spec.all![key]));
  const found: (Element | null)[] = firstKeys.map(() => null);
  const lists: Element[][] = allKeys.map(() => []);
  let missing = firstKeys.length;
  const done = allKeys.length === 0;
  walk(
    root,
    (el) => {
      for (let i = 0; i < firstQueries.length; i++) {
        if (found[i] === null && firstQueries[i]!(el)) {
          found[i] = el;
          missing--;
        }
      }
      for (let i = 0; i < allQueries.length; i++) if (allQueries[i]!(el)) lists[i]!.push(el);
      return done && missing === 0;
    },
    null,
  );
  firstKeys.forEach((key, i) => (firsts[key] = found[i]!));
  allKeys.forEach((key, i) => (alls[key] = lists[i]!));
  return { first: firsts, all: alls };
}

/** Normalized text of an element; null when there is none or it is empty (as `firstText` answers). */
export function elementText(el: Element | null): string | null {
  if (!el) return null;
  const text = textOf(el);
  return text === '' ? null : text;
}

// Elements whose edges end a line or a cell for a reader: their boundaries are a word break, never part of a number.
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
// A block boundary while joining: a private-use character no page text is read for, so the digit-group rule below
// can tell it from whitespace the page's own source wrote, then turned into a space.
const BOUNDARY = '\uE000';
// Source whitespace inside a thousands-grouped number (`<span>¥198</span>\n  ,000`, `¥1 ,198 ,000`): a line break
// or indent between inline nodes is formatting, not a separator, so it is dropped between a digit and `,ddd` and
// between `d,` and `ddd`. A block boundary there stays a space: two cells are two numbers.
const SPACE_BEFORE_GROUP = /(?<=[0-9])\s+(?=,[0-9]{3}(?![0-9]))/g;
const SPACE_AFTER_SEPARATOR = /(?<=[0-9],)\s+(?=[0-9]{3}(?![0-9]))/g;

/**
 * Text as a reader sees it, the one rule every extractor reads numbers through: inline nodes join as written, with
 * no space inserted (Rakuten writes `3,200<span>円</span>`, pages split `<span>¥1</span>,<span>198</span>,000`); the
 * source's whitespace inside a thousands-grouped number is dropped; a block element's edges (`p`, `div`, `li`, table
 * cells, `<br>` …) become one space, so `<p>1</p><p>2</p>` never reads as 12. Then `ja-extract` normalized.
 */
export function textOf(node: AnyNode): string {
  let out = '';
  const stack: (AnyNode | typeof BOUNDARY)[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === BOUNDARY) out += BOUNDARY;
    else if (isText(current)) out += current.data;
    else if (isTag(current)) {
      const block = current !== node && BLOCKS.has(current.name);
      if (block) {
        out += BOUNDARY;
        stack.push(BOUNDARY);
      }
      for (let i = current.children.length - 1; i >= 0; i--) {
        const child = current.children[i];
        if (child) stack.push(child);
      }
    }
  }
  // Full-width digits and commas (`１９８ ，０００`) are read after NFKC, as the parsers read them.
  if (/[\uFF0C\uFF10-\uFF19]/.test(out)) out = out.normalize('NFKC');
  if (/[0-9][,\s]/.test(out)) out = out.replace(SPACE_BEFORE_GROUP, '').replace(SPACE_AFTER_SEPARATOR, '');
  return normalizeText(out.includes(BOUNDARY) ? out.replaceAll(BOUNDARY, ' ') : out);
}

/** Normalized text of the first match; null when nothing matches or the match is empty. */
export function firstText(root: Root, selector: string): string | null {
  return elementText(first(root, selector));
}

/** The attribute of the first element that has it (trimmed, non-empty): `firstAttr` over matches already found. */
export function attrOf(elements: readonly Element[], name: string): string | null {
  for (const el of elements) {
    const value = el.attribs[name]?.trim();
    if (value) return value;
  }
  return null;
}

/** Normalized, non-empty texts of every match, in document order. */
export function allTexts(root: Root, selector: string): string[] {
  return all(root, selector)
    .map(textOf)
    .filter((t) => t !== '');
}

/** An attribute of the first match that has it (trimmed, non-empty). */
export function firstAttr(root: Root, selector: string, name: string): string | null {
  if (Array.isArray(root)) return attrOf(all(root, selector), name);
  // One walk that stops at the answer, rather than every match collected first.
  const q = matcher(selector);
  const el = walk(root, (e) => q(e) && !!e.attribs[name]?.trim(), null);
  return el ? el.attribs[name]!.trim() : null;
}
