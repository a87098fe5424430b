// Embedded page state is kept by normalization and parsed as data, never run.
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../normalize/normalize-page.js';
import type { HtmlPage } from '../normalize/page.js';
import { readEmbeddedState, readEmbeddedStates } from './embedded-state.js';
import { availabilityFromText } from './availability.js';

function page(html: string): HtmlPage {
  return normalizePage({
    body: new TextEncoder().encode(html),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    finalUrl: 'https://shop.example.jp/item/1',
    input: 'html',
  }) as HtmlPage;
}

describe('embedded state', () => {
  const html = `<html><head>
    <script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"price":1980}}}</script>
    <script>window.__INITIAL_STATE__ = {"item":{"name":"a \\"quoted\\" }name","price":2200}};window.x=1;</script>
    <script>var tracker = {"price": 1}; alert(1)</script>
    <script type="text/javascript1.5">{"old": "code"}</script>
    <script type="a-state" data-a-state='{"key":"twister"}'>{"sortedDimValues":[1,2]}</script>
    <script type="text/javascript" src="/app.js"></script>
  </head><body><p>x</p></body></html>`;

  it('keeps data scripts and state assignments, drops other code', () => {
    const p = page(html);
    expect(p.scripts.map((s) => s.id ?? s.type ?? 'inline')).toEqual(['__NEXT_DATA__', 'inline', 'a-state']);
    expect(p.scripts.some((s) => s.text.includes('alert'))).toBe(false);
  });

  it('parses by id, type and assignment', () => {
    const p = page(html);
    expect(readEmbeddedState(p, { id: '__NEXT_DATA__' })).toEqual({ props: { pageProps: { price: 1980 } } });
    expect(readEmbeddedState(p, { assigns: '__INITIAL_STATE__' })).toEqual({
      item: { name: 'a "quoted" }name', price: 2200 },
    });
    expect(readEmbeddedStates(p, { type: 'a-state' })).toEqual([{ sortedDimValues: [1, 2] }]);
    expect(readEmbeddedState(p, { assigns: '__MISSING__' })).toBeNull();
  });

  it('skips a state that is not JSON', () => {
    const p = page(`<script>window.__STATE__ = {a: 1}</script>`);
    expect(readEmbeddedState(p, { assigns: '__STATE__' })).toBeNull();
  });
});

describe('availabilityFromText', () => {
  it.each([
    ['在庫あり', 'in_stock'],
    ['在庫残少', 'limited'],
    ['残り3点', 'limited'],
    ['お取り寄せ', 'backorder'],
    ['予約受付中', 'preorder'],
    ['販売終了', 'discontinued'],
    ['売り切れ', 'out_of_stock'],
    ['品切れ', 'out_of_stock'],
    ['In Stock.', 'in_stock'],
    ['Currently unavailable.', 'out_of_stock'],
  ])('%s → %s', (text, availability) => {
    expect(availabilityFromText(text)).toEqual({ availability, text });
  });
  it('is null for other words', () => {
    expect(availabilityFromText('カラー: ブルー')).toBeNull();
    expect(availabilityFromText('')).toBeNull();
  });
});
