// The memory of pages that blew their parse budget: exact by bytes, extractor and outputs; a deadline loss twice, a heap
// loss once; bounded; forgotten a TTL after it was remembered, however often it is hit or the wall clock steps back.
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
    pages.remember(job('<div><div>x'), 'out_of_memory');
    expect(pages.has(job('<div><div>x', { finalUrl: 'https://www.ikebe-gakki.com/other' }))).toBe(true);
    // Same length, one byte different.
    expect(pages.has(job('<div><div>y'))).toBe(false);
    expect(pages.has(job('<div><div>x', { extractorId: 'ikebe_gakki/search' }))).toBe(false);
    // Asked for html only, the extraction that blew the budget does not run.
    expect(pages.has(job('<div><div>x', { wantData: false, wantHtml: true }))).toBe(false);
  });

  it('refuses a page after a heap loss at once, after a deadline loss only when it is the second within the TTL', async () => {
    const clock = new ManualClock();
    const pages = new OverBudgetPages({ clock, capacity: 10, ttlMs: 60_000 });
    pages.remember(job('oom'), 'out_of_memory');
    expect(pages.has(job('oom'))).toBe(true);

    // One deadline loss may be the machine's load: the page is parsed again.
    pages.remember(job('slow'), 'deadline');
    expect(pages.has(job('slow'))).toBe(false);
    await clock.advance(30_000);
    pages.remember(job('slow'), 'deadline');
    expect(pages.has(job('slow'))).toBe(true);

    // Two losses an hour apart are two unlucky moments, not a page that always blows its budget.
    pages.remember(job('rare'), 'deadline');
    await clock.advance(60_000);
    pages.remember(job('rare'), 'deadline');
    expect(pages.has(job('rare'))).toBe(false);
  });

  it('forgets a page its TTL after it was remembered: hits do not extend it', async () => {
    const clock = new ManualClock();
    const pages = new OverBudgetPages({ clock, capacity: 10, ttlMs: 60_000 });
    pages.remember(job('a'), 'deadline');
    await clock.advance(10_000);
    pages.remember(job('a'), 'deadline');
    // Polled all along: refused throughout its TTL, and no longer.
    for (let i = 0; i < 5; i++) {
      await clock.advance(11_999);
      expect(pages.has(job('a'))).toBe(true);
    }
    await clock.advance(5);
    expect(pages.has(job('a'))).toBe(false);
    expect(pages.size).toBe(0);
    // Parsed again, one deadline loss is a first strike again.
    pages.remember(job('a'), 'deadline');
    expect(pages.has(job('a'))).toBe(false);
  });

  it('refuses a page no longer than its TTL when the wall clock steps back an hour', async () => {
    const clock = new ManualClock();
    const pages = new OverBudgetPages({ clock, capacity: 10, ttlMs: 60_000 });
    pages.remember(job('a'), 'out_of_memory');
    clock.stepBack(3_600_000);
    expect(pages.has(job('a'))).toBe(true);
    await clock.advance(60_000);
    expect(pages.has(job('a'))).toBe(false);
  });

  it('holds at most its capacity, forgetting the least recently seen first', () => {
    const pages = new OverBudgetPages({ clock: new ManualClock(), capacity: 2, ttlMs: 60_000 });
    pages.remember(job('a'), 'out_of_memory');
    pages.remember(job('b'), 'out_of_memory');
    expect(pages.has(job('a'))).toBe(true);
    pages.remember(job('c'), 'out_of_memory');
    expect(pages.size).toBe(2);
    expect(pages.has(job('b'))).toBe(false);
    expect(pages.has(job('a'))).toBe(true);
    expect(pages.has(job('c'))).toBe(true);
  });
});
