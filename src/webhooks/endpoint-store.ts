// The WebhookEndpointStore role: a caller's registered webhook receivers and their signing secrets (sealed at rest).
import type { EventType } from '../batches/batch-store.js';

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  /** https URL, checked against the public-address policy at registration and at every connect. */
  url: string;
  events: EventType[];
  /** The last 4 characters of the current secret (the whole secret is shown once, at creation or rotation). */
  secretLast4: string;
  createdAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
}

export interface WebhookEndpointStore {
  /** null when there is no such endpoint of this account (or it was deleted). */
  get(id: string, accountId: string): Promise<WebhookEndpoint | null>;
  /**
   * The secrets that sign a delivery to this endpoint at `now`: the current one first, then the previous one while its
   * rotation grace (24 h) lasts. Decrypted in memory only. Empty when the endpoint is gone.
   */
  signingSecrets(id: string, now: string): Promise<string[]>;
  /** The receiver said 410 Gone (or an operator's reason): no more deliveries to it. */
  disable(id: string, reason: string, at: string): Promise<void>;
}

/** What a caller registers (the URL already checked against the address policy). */
export interface NewWebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: EventType[];
  createdAt: string;
}

/** How long a rotated-away secret keeps signing (DESIGN §8: old and new both sign for 24 h). */
export const rotationGraceMs = 24 * 3_600_000;

/** The endpoint routes' side of the store (additive to the port above, which the delivery worker uses). */
export interface WebhookEndpointAdmin extends WebhookEndpointStore {
  /** A new endpoint with a fresh `whsec_…` secret, stored sealed; the secret is returned this once. */
  create(endpoint: NewWebhookEndpoint): Promise<{ endpoint: WebhookEndpoint; secret: string }>;
  /** The account's endpoints (deleted ones left out), oldest first. */
  list(accountId: string): Promise<WebhookEndpoint[]>;
  /** False when there is no such endpoint of this account. Its secrets are erased with it. */
  delete(id: string, accountId: string, at: string): Promise<boolean>;
  /**
   * A fresh secret; the current one becomes the previous one and keeps signing for `rotationGraceMs` from `at`. Null
   * when there is no such endpoint of this account.
   */
  rotate(id: string, accountId: string, at: string): Promise<{ endpoint: WebhookEndpoint; secret: string } | null>;
}
