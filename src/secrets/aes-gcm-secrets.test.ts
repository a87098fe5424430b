// AesGcmSecrets: sealed values open only with the same key, the same context and every byte intact.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AesGcmBox, AesGcmSecrets } from './aes-gcm-secrets.js';

const serverKey = () => randomBytes(32);

describe('AesGcmSecrets', () => {
  it('round-trips text and bytes; each seal has its own nonce', () => {
    const secrets = new AesGcmSecrets(serverKey());
    const a = secrets.seal('whsec_abc', 'whe_1');
    const b = secrets.seal('whsec_abc', 'whe_1');
    expect(a.equals(b)).toBe(false);
    expect(a.length).toBe(12 + 'whsec_abc'.length + 16);
    expect(secrets.open(a, 'whe_1').toString('utf8')).toBe('whsec_abc');
    const bytes = randomBytes(100);
    expect(secrets.open(secrets.seal(bytes, 'x'), 'x').equals(bytes)).toBe(true);
  });

  it('refuses another context, another key, and any changed byte', () => {
    const key = serverKey();
    const secrets = new AesGcmSecrets(key);
    const sealed = secrets.seal('price: 1980', 'itm_1');
    expect(() => secrets.open(sealed, 'itm_2')).toThrow();
    expect(() => new AesGcmSecrets(serverKey()).open(sealed, 'itm_1')).toThrow();
    for (let i = 0; i < sealed.length; i++) {
      const changed = Buffer.from(sealed);
      changed[i] = changed[i]! ^ 0x01;
      expect(() => secrets.open(changed, 'itm_1'), `byte ${i}`).toThrow();
    }
    expect(() => secrets.open(sealed.subarray(0, 20), 'itm_1')).toThrow();
    // The same key in a new object opens it: nothing but the key and context matter.
    expect(new AesGcmSecrets(key).open(sealed, 'itm_1').toString()).toBe('price: 1980');
  });

  it('wraps data keys: a sealed data key reopens to a box that opens what the first sealed', () => {
    const secrets = new AesGcmSecrets(serverKey());
    const { box, sealed } = secrets.newDataKey('bat_1');
    expect(sealed.length).toBe(12 + 32 + 16);
    const result = box.seal('{"title":"marker"}', 'itm_9');
    const again = secrets.dataKeyBox(sealed, 'bat_1');
    expect(again.open(result, 'itm_9').toString()).toBe('{"title":"marker"}');
    expect(() => secrets.dataKeyBox(sealed, 'bat_2')).toThrow();
    // A data key is not the server key.
    expect(() => secrets.open(result, 'itm_9')).toThrow();
  });

  it('takes only 32-byte keys', () => {
    expect(() => new AesGcmBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
