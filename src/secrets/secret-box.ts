// The SecretBox role: authenticated encryption of what Kumo keeps for a caller (DESIGN §5): webhook signing secrets
// and batch data keys under the server key (KUMO_SECRETS_KEY), results and item URLs under a batch's data key.
import { KumoError } from '../errors.js';

export interface SecretBox {
  /**
   * AES-256-GCM: a fresh 96-bit nonce, the ciphertext and the tag in one buffer. `context` (an id such as `itm_…`) is
   * bound as associated data, so a sealed value moved to another row does not open.
   */
  seal(plain: Uint8Array | string, context: string): Buffer;
  /** The plaintext, or a thrown error when the key, the context or one byte differs. */
  open(sealed: Uint8Array, context: string): Buffer;
}

/** The server key's box, and the boxes of data keys it wraps. */
export interface Secrets extends SecretBox {
  /** A new random 256-bit data key: its box, and the key sealed with the server key (what is stored). */
  newDataKey(context: string): { box: SecretBox; sealed: Buffer };
  /** The box of a data key stored sealed. */
  dataKeyBox(sealed: Uint8Array, context: string): SecretBox;
}

export const secretsKeyVariable = 'KUMO_SECRETS_KEY';
/** What the batch and webhook routes say while shared mode has no key (/readyz: `missing: KUMO_SECRETS_KEY`). */
export const secretsMissingDetail = `${secretsKeyVariable} is not set`;

/**
 * The Secrets a batch or webhook route needs, or 503 `unavailable` saying the key is not set (shared mode without
 * KUMO_SECRETS_KEY). For the routes of both (b-api's batch routes call it too).
 */
export function requireSecrets<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) {
    throw new KumoError('unavailable', secretsMissingDetail, { body: { missing: secretsKeyVariable } });
  }
  return value;
}
