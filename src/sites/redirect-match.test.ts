// After redirects, a page is extracted only when its final URL is the same kind of page of the same site.
import { describe, expect, it } from 'vitest';
import { SiteRegistry } from './registry.js';

const registry = new SiteRegistry(undefined, { record: null });
const ikebe = registry.resolveHost('www.ikebe-gakki.com')!;
const estat = registry.resolveHost('api.e-stat.go.jp')!;
const item = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';

describe('sameKindAfterRedirect', () => {
  it.each([
    ['no redirect', item, true],
    ['another item', 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/100001', true],
    ['the top page', 'https://www.ikebe-gakki.com/', false],
    ['a search page', 'https://www.ikebe-gakki.com/p/search?keyword=usb', false],
    ['a company page', 'https://www.ikebe-gakki.com/company/', false],
    ['another site', 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData', false],
    ['an unknown host', 'https://www.example.com/c/c-/kb/kb01/kb011427/750592', false],
  ])('an item redirected to %s → %s', (_name, final, expected) => {
    expect(registry.sameKindAfterRedirect(ikebe, new URL(item), new URL(final))).toBe(expected);
  });

  it('keeps an API table a table whatever its query, and refuses another API path', () => {
    const asked = new URL('https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=1');
    const moved = new URL('https://api.e-stat.go.jp/rest/2.0/app/json/getStatsData?statsDataId=2');
    expect(registry.sameKindAfterRedirect(estat, asked, moved)).toBe(true);
    const other = new URL('https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?statsDataId=1');
    expect(registry.sameKindAfterRedirect(estat, asked, other)).toBe(false);
  });

  it('a URL no pattern matches (served by an explicit work_type) must not turn into a matching one', () => {
    const asked = new URL('https://www.ikebe-gakki.com/company/');
    expect(registry.sameKindAfterRedirect(ikebe, asked, new URL('https://www.ikebe-gakki.com/about/'))).toBe(true);
    expect(registry.sameKindAfterRedirect(ikebe, asked, new URL(item))).toBe(false);
  });
});
