// AES-256-GCM with node:crypto: the server key's SecretBox (KUMO_SECRETS_KEY) and the per-batch data keys it wraps.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox, Secrets } from './secret-box.js';

const keyBytes = 32;
// 96-bit nonces are GCM's native size; random ones are safe far beyond the number of values one key seals here.
const nonceBytes = 12;
const tagBytes = 16;

/** One key's box: nonce || ciphertext || tag, the context bound as associated data. */
export class AesGcmBox implements SecretBox {
  readonly #key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== keyBytes) throw new Error(`an AES-256-GCM key is ${keyBytes} bytes`);
    // A private copy: the caller's buffer may be reused or zeroed.
    this.#key = Buffer.from(key);
  }

  seal(plain: Uint8Array | string, context: string): Buffer {
    const nonce = randomBytes(nonceBytes);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: tagBytes });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([
      cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain),
      cipher.final(),
    ]);
    return Buffer.concat([nonce, body, cipher.getAuthTag()]);
  }

  open(sealed: Uint8Array, context: string): Buffer {
    if (sealed.length < nonceBytes + tagBytes) throw new Error('sealed value is too short');
    const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, data.subarray(0, nonceBytes), {
      authTagLength: tagBytes,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - tagBytes));
    // final() throws when the key, the context or any byte differs: nothing unauthenticated is returned.
    return Buffer.concat([decipher.update(data.subarray(nonceBytes, data.length - tagBytes)), decipher.final()]);
  }
}

/** The server key's box; data keys are random 256-bit keys sealed by it (AAD: the batch id). */
export class AesGcmSecrets extends AesGcmBox implements Secrets {
  newDataKey(context: string): { box: SecretBox; sealed: Buffer } {
    const key = randomBytes(keyBytes);
    const sealed = this.seal(key, context);
    const box = new AesGcmBox(key);
    key.fill(0);
    return { box, sealed };
  }

  dataKeyBox(sealed: Uint8Array, context: string): SecretBox {
    const key = this.open(sealed, context);
    if (key.length !== keyBytes) throw new Error('a sealed data key opened to the wrong length');
    const box = new AesGcmBox(key);
    key.fill(0);
    return box;
  }
}
