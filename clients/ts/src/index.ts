// @kumo/client: a typed client of the Kumo API, built on openapi-fetch over the types generated from /openapi.json.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './schema.js';

export type { components, operations, paths, webhooks };

type Schemas = components['schemas'];
/** A POST /v1/scrape answer: check `page_type` and `data` is that page type's shape (or null). */
export type ScrapeResult = Schemas['ScrapeResult'];
/** The answer for one page type, e.g. `ScrapeResultOf<'item'>`. */
export type ScrapeResultOf<P extends ScrapeResult['page_type']> = Extract<ScrapeResult, { page_type: P }>;
export type PageType = ScrapeResult['page_type'];
export type ScrapeBody = NonNullable<paths['/v1/scrape']['post']['requestBody']>['content']['application/json'];
export type Problem = Schemas['Problem'];
export type ItemData = Schemas['ItemData'];

/** An event type Kumo POSTs to a webhook endpoint: `item.succeeded`, `monitor.alert` … */
export type KumoWebhookType = keyof webhooks;
/** The body of one event type, e.g. `KumoWebhookEventOf<'monitor.alert'>`. */
export type KumoWebhookEventOf<T extends KumoWebhookType> =
  webhooks[T]['post']['requestBody']['content']['application/json'];
/**
 * Any body Kumo POSTs to a webhook endpoint, once its signature is verified (docs/batches.md): narrow it on `type`.
 *
 * ```ts
 * const event = new Webhook(secret).verify(rawBody, headers) as KumoWebhookEvent; // standardwebhooks
 * if (event.type === 'monitor.alert') for (const c of event.data.changes) console.log(c.field, c.before, c.after);
 * ```
 */
export type KumoWebhookEvent = KumoWebhookEventOf<KumoWebhookType>;

export type KumoClient = Client<paths>;

export interface KumoClientOptions {
  /** The Kumo instance, e.g. `https://api.kumo.dev` (the paths already start with /v1). */
  baseUrl: string;
  /** An API key; sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Another fetch (a test double, a proxy agent); default the global one. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every call besides the key (a User-Agent naming your app). */
  headers?: Record<string, string>;
}

/**
 * A client whose `POST`, `GET` … take Kumo's paths and answer `{ data, error, response }`: `data` typed by the
 * success schema, `error` a Problem (application/problem+json).
 *
 * ```ts
 * const kumo = createKumoClient({ baseUrl: 'https://api.kumo.dev', apiKey: process.env.KUMO_API_KEY! });
 * const { data: answer, error } = await kumo.POST('/v1/scrape', { body: { url } });
 * if (answer?.page_type === 'item' && answer.data) console.log(answer.data.price); // number, whole yen
 * ```
 */
export function createKumoClient(options: KumoClientOptions): KumoClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
