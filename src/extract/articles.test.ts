// Generic checks over the real Japanese articles of the corpus (readability-ja, newspaper-ja): page metadata
// matches what those projects expect, and normalization keeps every sentence of the expected body text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../normalize/normalize-page.js';
import type { HtmlPage } from '../normalize/page.js';
import { normalizeText } from '../normalize/text.js';
import { corpusAvailable, corpusPath } from '../sites/corpus.js';
import { readMeta } from './meta.js';
import { textOf } from './selectors.js';

function load(relative: string, url: string): HtmlPage {
  const page = normalizePage({
    body: new Uint8Array(readFileSync(corpusPath(relative))),
    headers: { 'content-type': 'text/html' },
    finalUrl: url,
    input: 'html',
  });
  if (page.kind !== 'html') throw new Error('html expected');
  return page;
}

describe.skipIf(!corpusAvailable())('readability-ja metadata', () => {
  it.each([
    ['hukumusume', 'http://hukumusume.com/douwa/English/aesop/01/01_j.html'],
    ['yahoo-4', 'https://headlines.yahoo.co.jp/hl?a=20170309-35097751-cnetj-sci'],
  ])('%s: title and site name as Readability expects', (name, url) => {
    const expected = JSON.parse(readFileSync(corpusPath(`readability-ja/${name}/expected-metadata.json`), 'utf8')) as {
      title: string;
      siteName: string | null;
    };
    const meta = readMeta(load(`readability-ja/${name}/source.html`, url));
    // Readability picks og:title over <title> when present; either way the normalized text must agree.
    expect([meta.ogTitle, meta.title]).toContain(normalizeText(expected.title));
    if (expected.siteName) expect(meta.ogSiteName).toBe(normalizeText(expected.siteName));
  });
});

describe.skipIf(!corpusAvailable())('newspaper-ja articles', () => {
  it.each([
    ['japanese_article.html', 'japanese.txt', '米朝首脳直通電話 習氏に挑むトランプ戦術の成否'],
    ['japanese_article2.html', 'japanese2.txt', '動画:ナイジェリアで少女らによる自爆攻撃'],
  ])('%s keeps the title and every sentence of %s', (html, txt, title) => {
    const page = load(`newspaper-ja/${html}`, 'https://www.example.jp/article');
    expect(readMeta(page).title ?? '').toContain(title);
    const body = page.document.children.map((n) => textOf(n)).join(' ');
    const paragraphs = readFileSync(corpusPath(`newspaper-ja/${txt}`), 'utf8')
      .split(/\n+|(?<=。)/)
      .map((p) => normalizeText(p))
      .filter((p) => p.length >= 20);
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    const missing = paragraphs.filter((p) => !body.includes(p.slice(0, 20)));
    expect(missing).toEqual([]);
  });
});
