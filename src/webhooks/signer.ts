// Standard Webhooks v1 signing with node:crypto: HMAC-SHA256 over `id.timestamp.body`, one `v1,` entry per secret.
import { createHmac, randomBytes } from 'node:crypto';

const secretPrefix = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks' format). */
export function newSigningSecret(): string {
  return secretPrefix + randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_…` secret (base64 after the prefix). */
export function secretKeyBytes(secret: string): Buffer {
  const encoded = secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** One `v1,<base64>` signature. */
export function signature(secret: string, id: string, timestampS: number, body: string): string {
  const mac = createHmac('sha256', secretKeyBytes(secret)).update(`${id}.${timestampS}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The Standard Webhooks headers for a delivery: the event id, the unix time in seconds, and one signature per active
 * secret (the current one first, then a rotated-away one during its grace), space-separated, so a receiver that has
 * either secret verifies it.
 */
export function signDelivery(id: string, timestampS: number, body: string, secrets: readonly string[]): SignedHeaders {
  if (secrets.length === 0) throw new Error('no signing secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestampS, body)).join(' '),
  };
}
