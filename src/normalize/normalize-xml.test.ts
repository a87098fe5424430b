// normalizePage for XML sources: names keep their case, only predefined entities, depth cap, charset decoding.
import { textContent } from 'domutils';
import { isComment, isTag, type Element } from 'domhandler';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { normalizeLimits, normalizePage } from './normalize-page.js';
import type { XmlPage } from './page.js';

const xml = (body: string | Uint8Array, headers: Record<string, string> = { 'content-type': 'application/xml' }) =>
  normalizePage({
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    headers,
    finalUrl: 'https://laws.e-gov.go.jp/api/2/law_file/xml/x',
    input: 'xml',
  }) as XmlPage;
const root = (page: XmlPage): Element => page.document.children.find((n): n is Element => isTag(n))!;

describe('normalizePage (xml)', () => {
  it('keeps element and attribute case and applies no HTML rules', () => {
    const page = xml('<?xml version="1.0"?><Law LawType="Act"><LawNum>x</LawNum><p><Item/>after</p></Law>');
    expect(page.kind).toBe('xml');
    const law = root(page);
    expect(law.name).toBe('Law');
    expect(law.attribs).toEqual({ LawType: 'Act' });
    // In HTML a <p> cannot hold an unknown self-closing element and would be cut; XML keeps the tree as written.
    const p = law.children.filter(isTag)[1]!;
    expect(p.children.filter(isTag).map((e) => e.name)).toEqual(['Item']);
    expect(textContent(p)).toBe('after');
  });

  it('decodes the predefined and numeric entities only: no DTD is read and no entity expands', () => {
    const page = xml(
      '<?xml version="1.0"?><!DOCTYPE Law [<!ENTITY boom "BOOM">]><Law>&amp;&lt;&#x3042;&#12356;&nbsp;&boom;</Law>',
    );
    const text = textContent(root(page));
    expect(text).toContain('&<あい');
    expect(text).not.toContain('BOOM');
    expect(text).not.toContain('\u00a0');
  });

  it('drops comments and cuts absurd nesting with a warning', () => {
    const deep = '<a>'.repeat(normalizeLimits.maxDomDepth + 50) + 'x' + '</a>'.repeat(normalizeLimits.maxDomDepth + 50);
    const page = xml(`<?xml version="1.0"?><!-- note -->${deep}`);
    expect(page.warnings).toEqual([`xml: elements nested deeper than ${normalizeLimits.maxDomDepth} were dropped`]);
    expect(page.document.children.some((n) => isComment(n))).toBe(false);
  });

  it('decodes a declared charset from the Content-Type header', () => {
    const body = iconv.encode('<?xml version="1.0" encoding="Shift_JIS"?><Law>行政手続法</Law>', 'shift_jis');
    const page = xml(new Uint8Array(body), { 'content-type': 'application/xml; charset=Shift_JIS' });
    expect(page.charset).toBe('shift_jis');
    expect(textContent(root(page))).toBe('行政手続法');
  });
});
