// A caller credential in a target URL is redacted in every form a server could read it from.
import { describe, expect, it } from 'vitest';
import { credentialValues, redactUrl } from './redact-url.js';

const base = 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData';
const secret = 'k3y-S3CRET-value';
const redact = (href: string) => redactUrl(new URL(href), ['appId']);

describe('redactUrl', () => {
  it.each([
    ['plain query', `${base}?appId=${secret}&statsDataId=1`],
    ['last in the query', `${base}?statsDataId=1&appId=${secret}`],
    ['upper case', `${base}?APPID=${secret}`],
    ['mixed case', `${base}?AppId=${secret}&statsDataId=1`],
    ['percent-encoded name', `${base}?app%49d=${secret}`],
    ['percent-encoded name, lower hex', `${base}?%61pp%69d=${secret}`],
    ['double percent-encoded name', `${base}?app%2549d=${secret}`],
    ['plus and spaces around the name', `${base}?+appId+=${secret}`],
    ['repeated', `${base}?appId=${secret}&x=1&appId=${secret}2&APPID=${secret}3`],
    ['semicolon-separated query', `${base}?statsDataId=1;appId=${secret}`],
    ['matrix parameter on the last segment', `${base};appId=${secret}?statsDataId=1`],
    ['matrix parameter mid-path', `https://api.e-stat.go.jp/rest/3.0;appId=${secret}/app/json/getStatsData`],
    ['matrix parameter after another', `${base};lang=J;APPID=${secret}`],
    ['in the fragment', `${base}?statsDataId=1#appId=${secret}`],
    ['in a query inside the fragment', `${base}#/view?x=1&appId=${secret}`],
    ['empty value then a real one', `${base}?appId=&appId=${secret}`],
  ])('%s', (_name, href) => {
    const out = redact(href);
    expect(out).not.toContain(secret);
    expect(out).toContain('REDACTED');
    // Everything else survives as sent.
    expect(out.startsWith('https://api.e-stat.go.jp/rest/3.0')).toBe(true);
    if (href.includes('statsDataId=1')) expect(out).toContain('statsDataId=1');
  });

  it('leaves other parameters, and names that only contain the secret name, alone', () => {
    const href = `${base}?statsDataId=0003014522&myappId=1&appIdx=2&lang=J#top`;
    expect(redact(href)).toBe(href);
  });

  it('returns the URL unchanged for a site without secrets', () => {
    const href = `${base}?appId=${secret}`;
    expect(redactUrl(new URL(href), [])).toBe(href);
  });

  it('keeps the rest of the URL byte for byte', () => {
    expect(redact(`${base}?statsDataId=1&appId=${secret}&cdCat01=%E3%81%82`)).toBe(
      `${base}?statsDataId=1&appId=REDACTED&cdCat01=%E3%81%82`,
    );
  });
});

describe('credentialValues', () => {
  const values = (href: string, min = 6) => credentialValues(new URL(href), ['appId', 'accessKey'], min);

  it('reads every place the redactor redacts, whatever the name’s case or encoding', () => {
    expect(values(`${base}?APPID=${secret}`)).toEqual([secret]);
    expect(values(`${base}?app%49d=query-value-1`)).toEqual(['query-value-1']);
    expect(values(`${base};appId=path-value-22?x=1`)).toEqual(['path-value-22']);
    expect(values(`${base}?statsDataId=1;accessKey=semicolon-val`)).toEqual(['semicolon-val']);
    expect(values(`${base}?x=1#appId=fragment-val`)).toEqual(['fragment-val']);
  });

  it('decodes the value as the target reads it, and keeps a malformed escape as sent', () => {
    expect(values(`${base}?appId=a%2Bb+c%20d-long`)).toEqual(['a+b c d-long']);
    expect(values(`${base}?appId=%E3%81%82%E3%81%84%E3%81%86%E3%81%88%E3%81%8A%E3%81%8B`)).toEqual(['あいうえおか']);
    expect(values(`${base}?appId=bad%zzescape`)).toEqual(['bad%zzescape']);
  });

  it('leaves out short values, other names and repeats', () => {
    expect(values(`${base}?appId=short`)).toEqual([]);
    expect(values(`${base}?appId=short`, 5)).toEqual(['short']);
    expect(values(`${base}?myappId=${secret}&appIdx=${secret}&appId`)).toEqual([]);
    expect(values(`${base}?appId=${secret}&APPID=${secret}`)).toEqual([secret]);
  });
});
