// normalizePage: decoding, cleaning, absolute links, JSON-LD capture, JSON limits, and serialization.
import { readFileSync } from 'node:fs';
import { selectAll, selectOne } from 'css-select';
import type { Element } from 'domhandler';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { corpusAvailable, corpusPath } from '../sites/corpus.js';
import { absoluteSrcset, normalizeLimits, normalizePage, serializeHtml } from './normalize-page.js';
import { linkResolver } from './links.js';
import type { HtmlPage } from './page.js';

const haveCorpus = corpusAvailable();
if (!haveCorpus) console.warn(`normalize-page corpus tests skipped: ${corpusPath('')} is absent`);

const html = (
  body: string,
  headers: Record<string, string> = { 'content-type': 'text/html' },
  finalUrl = 'https://shop.example.jp/a/b/page.html',
) => normalizePage({ body: new TextEncoder().encode(body), headers, finalUrl, input: 'html' }) as HtmlPage;

const attr = (page: HtmlPage, selector: string, name: string) =>
  selectOne<unknown, Element>(selector, page.document)?.attribs[name];

describe('normalizePage (html)', () => {
  it('keeps JSON-LD text, then removes scripts, styles, noscript, templates and comments', () => {
    const page = html(`<html><head>
      <script type="application/ld+json">{"@type":"Product","name":"A &amp; B"}</script>
      <script type="Application/LD+JSON; charset=utf-8">{"@type":"Thing"}</script>
      <script>alert(1)</script><style>p{}</style></head>
      <body><noscript>x</noscript><template><p>t</p></template><!-- secret --><p onclick="x()">本文</p></body></html>`);
    expect(page.kind).toBe('html');
    expect(page.jsonLd).toEqual(['{"@type":"Product","name":"A &amp; B"}', '{"@type":"Thing"}']);
    const out = serializeHtml(page);
    expect(out).not.toMatch(/<script|<style|<noscript|<template|secret|onclick|alert/);
    expect(out).toContain('<p>本文</p>');
  });

  it('makes href, src, srcset and action absolute against the final URL', () => {
    const page = html(`<a href="../x?q=1">x</a><img src="/i.jpg" srcset="s.jpg 1x, /l.jpg 2x">
      <form action="go"></form><a href="#top">t</a><a href="javascript:void(0)">j</a><a href="mailto:a@b.jp">m</a>`);
    expect(attr(page, 'a', 'href')).toBe('https://shop.example.jp/a/x?q=1');
    expect(attr(page, 'img', 'src')).toBe('https://shop.example.jp/i.jpg');
    expect(attr(page, 'img', 'srcset')).toBe('https://shop.example.jp/a/b/s.jpg 1x, https://shop.example.jp/l.jpg 2x');
    expect(attr(page, 'form', 'action')).toBe('https://shop.example.jp/a/b/go');
    expect(attr(page, 'a[href^="#"]', 'href')).toBe('#top');
    const links = selectAll<unknown, Element>('a', page.document).map((a) => a.attribs.href);
    expect(links).not.toContain('javascript:void(0)');
    expect(links).toContain('mailto:a@b.jp');
  });

  it("reads a link's scheme after resolution, so an obfuscated javascript: is dropped, never repaired", () => {
    const page = html(`<a id="a" href=" java&#x09;script:alert(7)">a</a><a id="b" href="JaVa&#10;ScRiPt:alert(7)">b</a>
      <a id="c" href="vbscript:msgbox(7)">c</a><img src="&#x20;javascript:alert(7)"><a id="d" href="data:text/html,x">d</a>`);
    expect(attr(page, '#a', 'href')).toBeUndefined();
    expect(attr(page, '#b', 'href')).toBeUndefined();
    expect(attr(page, '#c', 'href')).toBeUndefined();
    expect(attr(page, 'img', 'src')).toBeUndefined();
    expect(attr(page, '#d', 'href')).toBe('data:text/html,x');
  });

  it('takes the first <base href> of the kept tree: one inside a template or noscript (dropped, inert) does not count', () => {
    const page = html(
      '<head><template><base href="/t/"></template><noscript><base href="/n/"></noscript><base href="/b/"></head>' +
        '<a href="x" onclick="y()">x</a>',
    );
    expect(attr(page, 'a', 'href')).toBe('https://shop.example.jp/b/x');
    expect(attr(page, 'a', 'onclick')).toBeUndefined();
  });

  it('respects <base href>, itself resolved against the final URL', () => {
    const page = html('<head><link rel="canonical" href="c"><base href="/base/"></head><a href="x">x</a>');
    expect(attr(page, 'a', 'href')).toBe('https://shop.example.jp/base/x');
    expect(attr(page, 'link', 'href')).toBe('https://shop.example.jp/base/c');
  });

  it('splits srcset candidates whose URLs contain commas', () => {
    expect(absoluteSrcset('a,b.jpg 1x,c.jpg 2x', linkResolver('https://x.jp/'))).toBe(
      'https://x.jp/a,b.jpg 1x, https://x.jp/c.jpg 2x',
    );
    expect(absoluteSrcset('x.jpg, y.jpg 640w', linkResolver('https://x.jp/d/'))).toBe(
      'https://x.jp/d/x.jpg, https://x.jp/d/y.jpg 640w',
    );
  });

  it('decodes Shift_JIS pages declared in <meta>', () => {
    const body = new Uint8Array(iconv.encode('<meta charset="Shift_JIS"><h1>㈱イケベ ￥２，２００</h1>', 'cp932'));
    const page = normalizePage({ body, headers: {}, finalUrl: 'https://x.jp/', input: 'html' }) as HtmlPage;
    expect(page.charset).toBe('shift_jis');
    expect(serializeHtml(page)).toContain('㈱イケベ ￥２，２００');
  });

  it('caps nesting depth instead of overflowing the stack', () => {
    const deep = '<div>'.repeat(normalizeLimits.maxDomDepth + 500) + 'x';
    const page = html(deep);
    expect(page.warnings?.[0]).toMatch(/nested deeper/);
    expect(() => serializeHtml(page)).not.toThrow();
  });

  it('ignores JSON-LD blocks past the size cap', () => {
    const big = `{"x":"${'a'.repeat(normalizeLimits.maxJsonLdChars)}"}`;
    const page = html(
      `<script type="application/ld+json">${big}</script><script type="application/ld+json">{}</script>`,
    );
    expect(page.jsonLd).toEqual(['{}']);
    expect(page.warnings).toContain('json-ld: oversized block ignored');
  });
});

describe('normalizePage (json)', () => {
  const json = (text: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    normalizePage({
      body: new TextEncoder().encode(text),
      headers,
      finalUrl: 'https://api.example.jp/x.json',
      input: 'json',
    });

  it('parses JSON', () => {
    expect(json('{"a":[1,"二"]}')).toEqual({
      kind: 'json',
      url: 'https://api.example.jp/x.json',
      charset: 'utf-8',
      json: { a: [1, '二'] },
    });
  });

  it('throws extraction_failed on invalid JSON without echoing it', () => {
    try {
      json('<html>secret</html>');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).message).not.toContain('secret');
    }
  });
});

describe.skipIf(!haveCorpus)('real pages (read in place)', () => {
  it('ikebe-gakki product page: UTF-8, one JSON-LD block, no scripts left, absolute links', () => {
    const body = new Uint8Array(readFileSync(corpusPath('ikebe-gakki/product.html')));
    const page = normalizePage({
      body,
      headers: { 'content-type': 'text/html' },
      finalUrl: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
      input: 'html',
    }) as HtmlPage;
    expect(page.charset).toBe('utf-8');
    expect(page.jsonLd).toHaveLength(1);
    expect(page.jsonLd[0]).toContain('"@type": "Product"');
    const out = serializeHtml(page);
    expect(out).not.toMatch(/<script/i);
    expect(out).toContain('USB cable type C to type C【箱損アウトレット】');
    expect(attr(page, '.fs-c-breadcrumb__listItem a', 'href')).toBe('https://www.ikebe-gakki.com/');
  });

  it('2ch.html (Shift_JIS) and rakuten top (EUC-JP) decode by their declarations', () => {
    const sjis = normalizePage({
      body: new Uint8Array(readFileSync(corpusPath('2ch/2ch.html'))),
      headers: {},
      finalUrl: 'https://www.2ch.net/',
      input: 'html',
    }) as HtmlPage;
    expect(sjis.charset).toBe('shift_jis');
    expect(serializeHtml(sjis)).toContain('２ちゃんねる掲示板へようこそ');
    const euc = normalizePage({
      body: new Uint8Array(readFileSync(corpusPath('rakuten/rakuten.html'))),
      headers: {},
      finalUrl: 'https://www.rakuten.co.jp/',
      input: 'html',
    }) as HtmlPage;
    expect(euc.charset).toBe('euc-jp');
    expect(serializeHtml(euc)).toContain('【楽天市場】Shopping is Entertainment!');
  });

  it('yahoo-jp page: <base href> decides absolute links (jsoup expectation)', async () => {
    const { gunzipSync } = await import('node:zlib');
    const body = new Uint8Array(gunzipSync(readFileSync(corpusPath('yahoo-japan/yahoo-jp.html.gz'))));
    const page = normalizePage({
      body,
      headers: {},
      finalUrl: 'http://www.yahoo.co.jp/index.html',
      input: 'html',
    }) as HtmlPage;
    const a = selectAll<unknown, Element>('a', page.document).find((el) => el.attribs.href?.endsWith('/t/2322m2'));
    expect(a?.attribs.href).toBe(
      'http://www.yahoo.co.jp/_ylh=X3oDMTB0NWxnaGxsBF9TAzIwNzcyOTYyNjUEdGlkAzEyBHRtcGwDZ2Ex/t/2322m2',
    );
  });
});
