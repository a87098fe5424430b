// The memory of pages that blew their parse budget: exact by bytes, extractor and outputs; bounded; forgotten after its TTL.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../time/clock.js';
import { OverBudgetPages } from './over-budget-pages.js';
import type { ProduceJob } from './produce.js';

const job = (html: string, over: Partial<ProduceJob> = {}): ProduceJob => ({
  extractorId: 'ikebe_gakki/item',
  body: new TextEncoder().encode(html),
  headers: { 'content-type': 'text/html' },
  finalUrl: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
  wantData: true,
  wantHtml: false,
  ...over,
});

describe('OverBudgetPages', () => {
  it('knows a page by its bytes, extractor and outputs, not by its URL', () => {
    const pages = new OverBudgetPages({ clock: new ManualClock(), capacity: 10, ttlMs: 60_000 });
    pages.remember(job('<div><div>x'));
    expect(pages.has(job('<div><div>x', { finalUrl: 'https://www.ikebe-gakki.com/other' }))).toBe(true);
    // Same length, one byte different.
    expect(pages.has(job('<div><div>y'))).toBe(false);
    expect(pages.has(job('<div><div>x', { extractorId: 'ikebe_gakki/search' }))).toBe(false);
    // Asked for html only, the extraction that blew the budget does not run.
    expect(pages.has(job('<div><div>x', { wantData: false, wantHtml: true }))).toBe(false);
  });

  it('forgets a page its TTL after it was last seen', async () => {
    const clock = new ManualClock();
    const pages = new OverBudgetPages({ clock, capacity: 10, ttlMs: 60_000 });
    pages.remember(job('a'));
    await clock.advance(59_999);
    // Seen again: its TTL starts over.
    expect(pages.has(job('a'))).toBe(true);
    await clock.advance(59_999);
    expect(pages.has(job('a'))).toBe(true);
    await clock.advance(60_000);
    expect(pages.has(job('a'))).toBe(false);
    expect(pages.size).toBe(0);
  });

  it('holds at most its capacity, forgetting the least recently seen first', () => {
    const pages = new OverBudgetPages({ clock: new ManualClock(), capacity: 2, ttlMs: 60_000 });
    pages.remember(job('a'));
    pages.remember(job('b'));
    expect(pages.has(job('a'))).toBe(true);
    pages.remember(job('c'));
    expect(pages.size).toBe(2);
    expect(pages.has(job('b'))).toBe(false);
    expect(pages.has(job('a'))).toBe(true);
    expect(pages.has(job('c'))).toBe(true);
  });
});
