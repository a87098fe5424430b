// KUMO_CONNECT_TO parsing: what an operator may write, and the clear refusals for what they may not.
import { describe, expect, it } from 'vitest';
import { parseConnectTo } from './connect-to.js';

describe('parseConnectTo', () => {
  it('maps canonical hosts to origins', () => {
    const map = parseConnectTo(
      'www.ikebe-gakki.com=http://127.0.0.1:4100, SHOP.Example.JP.=https://origin.internal:8443/ ,a.jp=http://[::1]:9',
    );
    expect([...map.keys()]).toEqual(['www.ikebe-gakki.com', 'shop.example.jp', 'a.jp']);
    expect(map.get('www.ikebe-gakki.com')?.origin).toBe('http://127.0.0.1:4100');
    expect(map.get('shop.example.jp')?.origin).toBe('https://origin.internal:8443');
    expect(map.get('a.jp')?.origin).toBe('http://[::1]:9');
  });

  it('empty means no overrides', () => {
    expect(parseConnectTo('').size).toBe(0);
    expect(parseConnectTo(' , ').size).toBe(0);
  });

  const bad: [string, RegExp][] = [
    ['www.example.jp', /not host=origin/],
    ['=http://127.0.0.1:1', /not host=origin/],
    ['www.example.jp=127.0.0.1:80', /not an absolute http/],
    ['www.example.jp=', /not an absolute/],
    ['www.example.jp=ftp://127.0.0.1/', /http:\/\/ or https:\/\//],
    ['www.example.jp=http://127.0.0.1:1/path', /no path/],
    ['www.example.jp=http://127.0.0.1:1/?q', /no path/],
    ['www.example.jp=http://u:p@127.0.0.1:1', /credentials/],
    ['www.example.jp:443=http://127.0.0.1:1', /not a host name/],
    ['http://www.example.jp=http://127.0.0.1:1', /not a host name/],
    ['a.jp=http://127.0.0.1:1,A.JP=http://127.0.0.1:2', /mapped twice/],
  ];
  for (const [spec, message] of bad) {
    it(`refuses ${spec}`, () => {
      expect(() => parseConnectTo(spec)).toThrow(message);
    });
  }

  it('the error starts with the variable name so config validation can report it as is', () => {
    expect(() => parseConnectTo('nonsense')).toThrow(/^KUMO_CONNECT_TO: /);
  });
});
