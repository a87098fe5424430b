// The caller-URL gate against hostile spellings (research §1.2, test matrix A), and the address policy.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { canonicalHost, isIpLiteral, isPublicAddress, parseTargetUrl } from './url-policy.js';

function refusal(input: string): KumoError {
  try {
    parseTargetUrl(input);
  } catch (error) {
    expect(error).toBeInstanceOf(KumoError);
    return error as KumoError;
  }
  throw new Error(`accepted: ${JSON.stringify(input)}`);
}

describe('parseTargetUrl refuses', () => {
  const hostile: [string, string][] = [
    ['file scheme', 'file:///etc/passwd'],
    ['gopher scheme', 'gopher://127.0.0.1:6379/_INFO'],
    ['data scheme', 'data:text/html,<h1>x</h1>'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['ftp scheme', 'ftp://shop.example.jp/file'],
    ['ws scheme', 'ws://shop.example.jp/'],
    ['wss scheme', 'wss://shop.example.jp/'],
    ['blob scheme', 'blob:https://shop.example.jp/uuid'],
    ['scheme-relative', '//shop.example.jp/item'],
    ['no scheme', 'shop.example.jp/item'],
    ['empty', ''],
    ['blank', '   '],
    ['userinfo trick', 'http://shop.example.jp@evil.example/'],
    ['user and password', 'https://user:pass@shop.example.jp/'],
    ['empty userinfo password', 'https://user:@shop.example.jp/'],
    ['port 8080', 'https://shop.example.jp:8080/'],
    ['port 22', 'http://shop.example.jp:22/'],
    ['port 0', 'http://shop.example.jp:0/'],
    ['port 65536', 'http://shop.example.jp:65536/'],
    ['port 443 on http', 'http://shop.example.jp:443/'],
    ['port 80 on https', 'https://shop.example.jp:80/'],
    ['dotted loopback', 'http://127.0.0.1/'],
    ['decimal loopback', 'http://2130706433/'],
    ['hex short loopback', 'http://0x7f.1/'],
    ['octal loopback', 'http://0177.0.0.1/'],
    ['short loopback', 'http://127.1/'],
    ['hex loopback', 'http://0x7f000001/'],
    ['zero', 'http://0/'],
    ['all zeros', 'http://0.0.0.0/'],
    ['percent-encoded loopback', 'http://%31%32%37.0.0.1/'],
    ['full-width dots', 'http://127。0。0。1/'],
    ['circled digits', 'http://①②⑦.⓪.⓪.①/'],
    ['IPv4 with trailing dot', 'http://127.0.0.1./'],
    ['metadata IPv4', 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'http://100.100.100.200/'],
    ['public IPv4 literal', 'https://8.8.8.8/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped hex', 'http://[::ffff:7f00:1]/'],
    ['IPv4-mapped metadata', 'http://[0:0:0:0:0:ffff:169.254.169.254]/'],
    ['AWS IPv6 metadata', 'http://[fd00:ec2::254]/'],
    ['public IPv6 literal', 'https://[2606:4700::1111]/'],
    ['tab in host', 'https://shop.example.jp\t.evil.example/'],
    ['CR LF', 'https://shop.example.jp/\r\nX-Injected: 1'],
    ['NUL', 'https://shop.example.jp/\u0000'],
    ['DEL', 'https://shop.example.jp/\u007f'],
    ['C1 control', 'https://shop.example.jp/\u0085'],
    ['space in host', 'http://exa mple.com/'],
    ['over 2,048 characters', `https://shop.example.jp/${'a'.repeat(2048)}`],
    ['10 KB', `https://shop.example.jp/?q=${'x'.repeat(10 * 1024)}`],
    ['double trailing dot', 'https://shop.example.jp../'],
  ];
  for (const [name, input] of hostile) {
    it(`${name}`, () => {
      const error = refusal(input);
      expect(error.code).toBe('invalid_url');
      expect(error.extras.body).toEqual({ field: 'url' });
    });
  }

  it('never echoes the URL or a normalised address in the detail', () => {
    for (const input of ['http://2130706433/', 'https://user:s3cret@shop.example.jp/', 'http://[::ffff:7f00:1]/']) {
      const detail = refusal(input).message;
      expect(detail).not.toContain('127.0.0.1');
      expect(detail).not.toContain('s3cret');
      expect(detail).not.toContain('2130706433');
      expect(detail).not.toContain('7f00');
    }
  });
});

describe('parseTargetUrl accepts and canonicalises', () => {
  it('an ordinary https URL, unchanged', () => {
    const url = parseTargetUrl('https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592?x=1');
    expect(url.href).toBe('https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592?x=1');
  });

  it('upper-case host and one trailing dot', () => {
    const url = parseTargetUrl('HTTPS://SHOP.EXAMPLE.JP./Item');
    expect(url.hostname).toBe('shop.example.jp');
    expect(url.href).toBe('https://shop.example.jp/Item');
  });

  it('an explicit default port (WHATWG drops it)', () => {
    expect(parseTargetUrl('https://shop.example.jp:443/a').href).toBe('https://shop.example.jp/a');
    expect(parseTargetUrl('http://shop.example.jp:80/a').href).toBe('http://shop.example.jp/a');
  });

  it('drops the fragment, which is never sent', () => {
    expect(parseTargetUrl('https://shop.example.jp/a#frag').href).toBe('https://shop.example.jp/a');
  });

  it('a fragment trick names the real host', () => {
    expect(parseTargetUrl('http://evil.example#@shop.example.jp/').hostname).toBe('evil.example');
  });

  it('a backslash is a path separator under the real host', () => {
    const url = parseTargetUrl('http://shop.example.jp\\@evil.example/');
    expect(url.hostname).toBe('shop.example.jp');
    expect(url.pathname).toBe('/@evil.example/');
    expect(parseTargetUrl('http:\\\\evil.example\\x').hostname).toBe('evil.example');
  });

  it('lookalike hosts are just other hosts (the site allowlist decides)', () => {
    expect(parseTargetUrl('https://shop.example.jp.evil.example/').hostname).toBe('shop.example.jp.evil.example');
    expect(parseTargetUrl('https://shop-example.jp/').hostname).toBe('shop-example.jp');
    expect(parseTargetUrl('https://ｓｈｏｐ.example.jp/').hostname).toBe('shop.example.jp');
    // Cyrillic "о": punycode, never equal to the ASCII name.
    expect(parseTargetUrl('https://shоp.example.jp/').hostname).toMatch(/^xn--/);
    expect(parseTargetUrl('http://localhost/').hostname).toBe('localhost');
  });

  it('a Japanese IDN host in punycode, as WHATWG gives it', () => {
    expect(parseTargetUrl('https://日本語.jp/').hostname).toBe('xn--wgv71a119e.jp');
  });

  it('exactly 2,048 characters', () => {
    const base = 'https://shop.example.jp/';
    const input = base + 'a'.repeat(2048 - base.length);
    expect(parseTargetUrl(input).href).toBe(input);
  });
});

describe('canonicalHost and isIpLiteral', () => {
  it('strips one trailing dot and lower-cases', () => {
    expect(canonicalHost(new URL('https://Shop.Example.JP./'))).toBe('shop.example.jp');
  });
  it('knows WHATWG-normalised literals', () => {
    expect(isIpLiteral(new URL('http://0x7f.1/').hostname)).toBe(true);
    expect(isIpLiteral(new URL('http://[::1]/').hostname)).toBe(true);
    expect(isIpLiteral('shop.example.jp')).toBe(false);
  });
});

describe('isPublicAddress', () => {
  const forbidden = [
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '2002:7f00:1::',
    // Caller-style spellings are not addresses to this function.
    '0x7f.1',
    '2130706433',
    'localhost',
    '',
  ];
  for (const ip of forbidden) {
    it(`refuses ${JSON.stringify(ip)}`, () => expect(isPublicAddress(ip)).toBe(false));
  }
  for (const ip of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
    it(`allows ${ip}`, () => expect(isPublicAddress(ip)).toBe(true));
  }
});
