// Small css-select helpers over the normalized tree: first match, its normalized text, attributes.
import { compile, selectAll, selectOne } from 'css-select';

type CompiledQuery = ReturnType<typeof compile<AnyNode, Element>>;
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { normalizeText } from '../normalize/text.js';

export type Root = AnyNode | AnyNode[];

// Extractors use a fixed set of selectors: compiling each once saves a parse per query per page.
const compiled = new Map<string, CompiledQuery>();
function query(selector: string): CompiledQuery {
  let q = compiled.get(selector);
  if (!q) {
    q = compile<AnyNode, Element>(selector);
    compiled.set(selector, q);
  }
  return q;
}

export function first(root: Root, selector: string): Element | null {
  return selectOne<AnyNode, Element>(query(selector), root);
}

export function all(root: Root, selector: string): Element[] {
  return selectAll<AnyNode, Element>(query(selector), root);
}

/**
 * Text as a reader sees it: text nodes joined without inserted spaces (Rakuten writes `3,200<span>円</span>`),
 * `<br>` as a space, then `ja-extract` normalized.
 */
export function textOf(node: AnyNode): string {
  let out = '';
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) out += current.data;
    else if (isTag(current)) {
      if (current.name === 'br') out += ' ';
      for (let i = current.children.length - 1; i >= 0; i--) {
        const child = current.children[i];
        if (child) stack.push(child);
      }
    }
  }
  return normalizeText(out);
}

/** Normalized text of the first match; null when nothing matches or the match is empty. */
export function firstText(root: Root, selector: string): string | null {
  const el = first(root, selector);
  if (!el) return null;
  const text = textOf(el);
  return text === '' ? null : text;
}

/** Normalized, non-empty texts of every match, in document order. */
export function allTexts(root: Root, selector: string): string[] {
  return all(root, selector)
    .map(textOf)
    .filter((t) => t !== '');
}

/** An attribute of the first match that has it (trimmed, non-empty). */
export function firstAttr(root: Root, selector: string, name: string): string | null {
  for (const el of all(root, selector)) {
    const value = el.attribs[name]?.trim();
    if (value) return value;
  }
  return null;
}
