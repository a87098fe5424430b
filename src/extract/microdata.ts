// HTML microdata (itemscope/itemprop, with itemref) as JSON-LD-shaped nodes, so Product/Offer reading is shared.
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';
import type { JsonObject } from './json-ld.js';
import { all, textOf } from './selectors.js';

const MAX_DEPTH = 16;
const URL_PROPS: Readonly<Record<string, string>> = {
  a: 'href',
  area: 'href',
  link: 'href',
  img: 'src',
  audio: 'src',
  video: 'src',
  source: 'src',
  iframe: 'src',
  embed: 'src',
  track: 'src',
  object: 'data',
};

/** Top-level items (itemscope without itemprop) in document order, as `{'@type', prop: value | value[]}`. */
export function readMicrodata(document: Document): JsonObject[] {
  const byId = new Map<string, Element>();
  for (const el of all(document, '[id]')) if (!byId.has(el.attribs.id!)) byId.set(el.attribs.id!, el);
  return all(document, '[itemscope]:not([itemprop])').map((el) => item(el, byId, 0, new Set()));
}

function item(scope: Element, byId: ReadonlyMap<string, Element>, depth: number, seen: Set<Element>): JsonObject {
  const node: JsonObject = {};
  const type = (scope.attribs.itemtype ?? '').trim().split(/\s+/).filter(Boolean);
  if (type.length > 0) node['@type'] = type.length === 1 ? type[0] : type;
  if (depth >= MAX_DEPTH || seen.has(scope)) return node;
  seen.add(scope);
  // The scope's own subtree, then the elements its itemref names (which may hold properties of their own).
  const roots: AnyNode[] = [...scope.children];
  for (const id of (scope.attribs.itemref ?? '').trim().split(/\s+/).filter(Boolean)) {
    const ref = byId.get(id);
    // A referenced item that is no property lends its properties (extruct reads it so; pages rely on it).
    if (ref)
      roots.push(...(ref.attribs.itemprop === undefined && ref.attribs.itemscope !== undefined ? ref.children : [ref]));
  }
  for (const el of propertiesUnder(roots)) {
    const value = el.attribs.itemscope !== undefined ? item(el, byId, depth + 1, seen) : valueOf(el);
    for (const name of (el.attribs.itemprop ?? '').trim().split(/\s+/).filter(Boolean)) {
      const prev = node[name];
      node[name] = prev === undefined ? value : Array.isArray(prev) ? [...(prev as unknown[]), value] : [prev, value];
    }
  }
  seen.delete(scope);
  return node;
}

// itemprop elements whose nearest scope is the one being read: nested itemscope subtrees belong to their item.
function propertiesUnder(roots: readonly AnyNode[]): Element[] {
  const out: Element[] = [];
  const visited = new Set<AnyNode>();
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    // itemref may point back into the scope (or at itself): each element counts once.
    if (!isTag(n) || visited.has(n)) continue;
    visited.add(n);
    if (n.attribs.itemprop !== undefined) out.push(n);
    if (n.attribs.itemscope !== undefined) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

function valueOf(el: Element): string {
  if (el.attribs.content !== undefined) return el.attribs.content.trim();
  const urlAttr = URL_PROPS[el.name];
  if (urlAttr) return (el.attribs[urlAttr] ?? '').trim();
  if (el.name === 'time' && el.attribs.datetime !== undefined) return el.attribs.datetime.trim();
  if ((el.name === 'data' || el.name === 'meter') && el.attribs.value !== undefined) return el.attribs.value.trim();
  return textOf(el);
}
