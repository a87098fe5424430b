// The selector helpers' own walk and selectMany against css-select's answers on one small tree.
import { compile, selectAll, selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { parsePrice } from '../normalize/price.js';
import {
  all,
  attrOf,
  elementText,
  first,
  firstAttr,
  firstText,
  requiredNames,
  selectMany,
  textOf,
} from './selectors.js';

// Nested matches, a <template> (css-select skips its contents), empty and blank attributes, siblings at many depths.
const doc = parseDocument(
  `<html><head><title> </title><meta name="d" content=""><meta name="d" content=" x "></head><body>
   <div class="a" id="one"><p class="b">1<span class="b">2</span></p><template><p class="b">hidden</p></template>
     <div class="a"><p class="b" data-x="  ">3</p><p class="b" data-x="y">4</p></div></div>
   <ul><li><a href="/1">one</a></li><li><a href=" ">blank</a></li><li><a href="/3">three</a></li></ul>
   <p class="b">5</p><head><title>late</title></head></body></html>`,
  { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
);
const SELECTORS = ['.b', '.a .b', 'div > p.b', 'li a[href]', 'title', 'head > title', 'meta[content]', '#one', 'q'];
// What the helpers answered when they called css-select with queries compiled once, without a context (a selector
// such as `.a .b` is not scoped to the root: its `.a` may be above it).
const cssAll = (root: AnyNode | AnyNode[], selector: string) =>
  selectAll<AnyNode, Element>(compile<AnyNode, Element>(selector), root);
const cssOne = (root: AnyNode | AnyNode[], selector: string) =>
  selectOne<AnyNode, Element>(compile<AnyNode, Element>(selector), root);
const roots: [string, AnyNode][] = [
  ['document', doc],
  ['an element', cssOne(doc, '#one')!],
];

describe('first and all', () => {
  for (const [name, root] of roots) {
    it(`give css-select's answers below ${name}, in document order`, () => {
      for (const selector of SELECTORS) {
        expect(all(root, selector)).toEqual(cssAll(root, selector));
        expect(first(root, selector)).toBe(cssOne(root, selector));
      }
    });
  }

  it('leave a list of roots to css-select, which matches the roots themselves', () => {
    const list = all(doc, 'div.a');
    expect(all(list, '.a')).toEqual(cssAll(list, '.a'));
    expect(first(list, '.b')).toBe(cssOne(list, '.b'));
  });

  it('firstAttr takes the first match whose attribute is not blank', () => {
    expect(firstAttr(doc, 'li a', 'href')).toBe('/1');
    expect(firstAttr(doc, '.a .b', 'data-x')).toBe('y');
    expect(firstAttr(doc, 'meta', 'content')).toBe('x');
    expect(firstAttr(doc, 'q', 'href')).toBeNull();
  });
});

describe('selectMany', () => {
  it('answers each query as first and all would, in one walk', () => {
    for (const [, root] of roots) {
      const spec = {
        first: Object.fromEntries(SELECTORS.map((s) => [`f${s}`, s])),
        all: Object.fromEntries(SELECTORS.map((s) => [`a${s}`, s])),
      };
      const found = selectMany(root, spec);
      for (const selector of SELECTORS) {
        expect(found.first[`f${selector}`]).toBe(first(root, selector));
        expect(found.all[`a${selector}`]).toEqual(all(root, selector));
      }
    }
  });

  it('with only first queries, finds matches that come after others were found', () => {
    const found = selectMany(doc, { first: { title: 'title', last: 'body > p.b', none: 'q' } });
    expect(found.first.title).toBe(first(doc, 'title'));
    expect(found.first.last).toBe(first(doc, 'body > p.b'));
    expect(found.first.none).toBeNull();
    expect(elementText(found.first.last)).toBe('5');
  });

  it('on a list of roots gives what first and all give on it', () => {
    const list = all(doc, 'div.a');
    const found = selectMany(list, { first: { b: '.b' }, all: { a: '.a' } });
    expect(found.first.b).toBe(first(list, '.b'));
    expect(found.all.a).toEqual(all(list, '.a'));
  });
});

describe('elementText and attrOf', () => {
  it('read found elements as firstText and firstAttr read matches', () => {
    expect(elementText(first(doc, 'title'))).toBe(firstText(doc, 'title'));
    expect(elementText(null)).toBeNull();
    expect(attrOf(all(doc, 'li a'), 'href')).toBe(firstAttr(doc, 'li a', 'href'));
    expect(attrOf(all(doc, 'meta'), 'content')).toBe('x');
    expect(attrOf([], 'href')).toBeNull();
  });
});

describe('requiredNames', () => {
  it("reads the classes and id of the selector's subject, the rightmost compound", () => {
    expect(requiredNames('.fs-c-productList__list .fs-c-productListItem')).toEqual({
      classes: ['fs-c-productListItem'],
      id: null,
    });
    expect(requiredNames('#tbl_all tr.item')).toEqual({ classes: ['item'], id: null });
    expect(requiredNames('div>p.b.c:last-child')).toEqual({ classes: ['b', 'c'], id: null });
    expect(requiredNames('#search_result')).toEqual({ classes: [], id: 'search_result' });
    expect(requiredNames('.pagination a.next[href]')).toEqual({ classes: ['next'], id: null });
  });

  it('names nothing it cannot read with certainty, or when the subject names no class or id', () => {
    for (const selector of [
      'li a[href]',
      'a[href*="/shop/"]',
      '.a, .b',
      '.a:not(.b)',
      'link[rel~="canonical" i]',
      '.a\\:b',
      'td',
    ])
      expect(requiredNames(selector)).toBeNull();
  });

  it('is a condition every match meets: selectors answer as css-select does', () => {
    const page = parseDocument(
      '<div class="x-item item"><p class="itemize">a</p><p class="item">b</p><i id="tbl_all2">c</i><i id="tbl_all">d</i></div>',
    );
    for (const selector of ['.item', 'p.item', '#tbl_all', 'div .item', '.x-item']) {
      expect(all(page, selector)).toEqual(cssAll(page, selector));
    }
  });
});

describe('textOf: how text nodes are joined before numbers are read', () => {
  const body = (html: string) => first(parseDocument(`<html><body><div id="r">${html}</div></body></html>`), '#r')!;
  // Digits, separators and currency marks cut into text nodes at each place a page's template may cut them.
  const splits = (digits: string): [string, string][] => {
    const grouped = Number(digits).toLocaleString('en-US');
    const cuts: [string, string][] = [];
    for (let i = 1; i < grouped.length; i++) cuts.push([grouped.slice(0, i), grouped.slice(i)]);
    return cuts;
  };

  it.each(['1198000', '198000', '4500', '12345678'])(
    'reads ¥%s whole wherever inline nodes split it, with the source indented between them',
    (digits) => {
      for (const [a, b] of splits(digits)) {
        // Whitespace between two digits is a visible space a browser shows too (`¥1 2,345`): only a cut beside a
        // group separator is indented in these cases.
        const gaps = b.startsWith(',') || a.endsWith(',') ? ['', '\n', '\n      ', ' '] : [''];
        for (const gap of gaps) {
          for (const html of [
            `<span>¥${a}</span>${gap}<span>${b}</span>${gap}<span>（税込）</span>`,
            `¥<b>${a}</b>${gap}${b}<small>円</small>`,
            `<span class="p">¥${a}${gap}</span><em>${gap}${b}</em>`,
          ]) {
            const text = textOf(body(html));
            // A gap that is not inside a digit group (`¥1,198,000 （税込）`) may stay; the amount may not change.
            expect(parsePrice(text).amount, `${JSON.stringify(html)} → ${text}`).toBe(Number(digits));
          }
        }
      }
    },
  );

  it('drops source whitespace inside every group of a number, not only the first', () => {
    expect(textOf(body('<span>¥1</span>\n ,<span>198</span>\n ,000'))).toBe('¥1,198,000');
    expect(textOf(body('¥198 ,000（税込）'))).toBe('¥198,000(税込)');
    expect(textOf(body('<span>¥１</span> ，１９８ ，０００'))).toBe('¥1,198,000');
  });

  it('makes a block boundary a space, so two cells or paragraphs are never one number', () => {
    expect(textOf(body('<p>1</p><p>2</p>'))).toBe('1 2');
    expect(textOf(body('<table><tr><td>198</td><td>,000円</td></tr></table>'))).toBe('198 ,000円');
    expect(textOf(body('<dl><dt>価格</dt><dd>1,980円</dd></dl><div>10</div>'))).toBe('価格 1,980円 10');
    expect(textOf(body('3,200<span>円</span><br>送料別'))).toBe('3,200円 送料別');
  });

  it('keeps whitespace that is not inside a digit group', () => {
    expect(textOf(body('1 ,23 and 1, 2345'))).toBe('1 ,23 and 1, 2345');
    expect(textOf(body('<span>サイズ</span> <span>10</span>'))).toBe('サイズ 10');
  });
});
