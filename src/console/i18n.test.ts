// Which language a console page is in, and how its times and numbers read.
import { describe, expect, it } from 'vitest';
import { formatDay, formatTime, languageOf, translator } from './i18n.js';

describe('languageOf', () => {
  it('is Japanese when Japanese is the most preferred language, English otherwise', () => {
    expect(languageOf(undefined, undefined, 'ja')).toBe('ja');
    expect(languageOf(undefined, undefined, 'ja-JP,en;q=0.8')).toBe('ja');
    expect(languageOf(undefined, undefined, 'en-US,ja;q=0.9')).toBe('en');
    expect(languageOf(undefined, undefined, 'en;q=0.5,ja;q=0.9')).toBe('ja');
    expect(languageOf(undefined, undefined, 'fr')).toBe('en');
    expect(languageOf(undefined, undefined, undefined)).toBe('en');
    expect(languageOf(undefined, undefined, 'jav')).toBe('en');
  });

  it('lets the switch (query, then cookie) override the browser, and ignores unknown values', () => {
    expect(languageOf('en', 'ja', 'ja')).toBe('en');
    expect(languageOf(undefined, 'ja', 'en')).toBe('ja');
    expect(languageOf('de', 'xx', 'ja')).toBe('ja');
  });
});

describe('messages', () => {
  it('fills placeholders in both languages', () => {
    expect(translator('en')('concurrencyOf', { used: 1, limit: 2 })).toBe('1 of 2');
    expect(translator('ja')('concurrencyOf', { used: 1, limit: 2 })).toBe('2 中 1');
  });

  it('shows times in Asia/Tokyo, with the zone said in both languages', () => {
    expect(formatTime('2026-04-30T15:30:00.000Z', 'en')).toBe('May 1, 2026, 00:30:00 JST');
    expect(formatTime('2026-04-30T15:30:00.000Z', 'ja')).toBe('2026年5月1日 00:30:00 JST');
    expect(formatDay('2026-11-30T15:00:00.000Z', 'ja')).toBe('2026年12月1日');
    expect(formatDay('2026-11-30T15:00:00.000Z', 'en')).toBe('Dec 1, 2026');
  });
});
