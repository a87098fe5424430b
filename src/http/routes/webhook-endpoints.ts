// /v1/webhook-endpoints: register, list, read, delete and rotate the secret of a caller's webhook receivers.
import Type from 'typebox';
import type { Authenticate, KumoApp } from '../app-types.js';
import { IdParamsSchema } from '../schemas.js';
import { problemResponses } from '../openapi.js';
import { KumoError } from '../../errors.js';
import { newId } from '../../accounts/ids.js';
import { eventTypes } from '../../batches/batch-store.js';
import type { WebhookEndpoint, WebhookEndpointAdmin } from '../../webhooks/endpoint-store.js';
import { checkEndpointUrl, type EndpointUrlPolicy } from '../../webhooks/endpoint-url.js';
import { requireSecrets } from '../../secrets/secret-box.js';
import type { Clock } from '../../time/clock.js';
import { systemClock } from '../../time/clock.js';

/** What the routes need: the store (null while shared mode has no KUMO_SECRETS_KEY) and the URL policy. */
export interface WebhookEndpointServices {
  store: WebhookEndpointAdmin | null;
  urlPolicy: EndpointUrlPolicy;
  clock?: Clock;
}

// Spelled out (a mapped union loses its literal types); the route test checks it lists exactly `eventTypes`.
export const EventTypeSchema = Type.Union(
  [
    Type.Literal('item.succeeded'),
    Type.Literal('item.failed'),
    Type.Literal('item.not_found'),
    Type.Literal('item.skipped'),
    Type.Literal('batch.completed'),
    Type.Literal('batch.cancelled'),
  ],
  { description: 'An event type.' },
);

const EndpointSchema = Type.Object({
  id: Type.String({ pattern: '^whe_[0-9A-Z]{26}$' }),
  url: Type.String(),
  events: Type.Array(EventTypeSchema),
  secret_last4: Type.String({ description: 'The last 4 characters of the current signing secret.' }),
  created_at: Type.String({ format: 'date-time' }),
  disabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When deliveries stopped (the receiver answered 410 Gone); null while active.',
  }),
});

const EndpointWithSecretSchema = Type.Object({
  ...EndpointSchema.properties,
  secret: Type.String({
    pattern: '^whsec_',
    description: 'The Standard Webhooks signing secret (`whsec_` + base64 of 32 bytes). Shown this once only.',
  }),
});

const CreateBodySchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 4096, description: 'https URL of the receiver (public address).' }),
    events: Type.Optional(
      Type.Array(EventTypeSchema, {
        minItems: 1,
        maxItems: eventTypes.length,
        uniqueItems: true,
        description: 'Event types sent to it; default all.',
      }),
    ),
  },
  { additionalProperties: false },
);

const RequestIdSchema = Type.String({ pattern: '^req_[0-9A-Z]{26}$' });
const OneResponseSchema = Type.Object({ request_id: RequestIdSchema, endpoint: EndpointSchema });
const WithSecretResponseSchema = Type.Object({ request_id: RequestIdSchema, endpoint: EndpointWithSecretSchema });
const ListResponseSchema = Type.Object({ request_id: RequestIdSchema, endpoints: Type.Array(EndpointSchema) });

function shown(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    secret_last4: endpoint.secretLast4,
    created_at: endpoint.createdAt,
    disabled_at: endpoint.disabledAt,
  };
}

const notFound = () => new KumoError('not_found', 'no such webhook endpoint for this account');

export function registerWebhookEndpointRoutes(
  app: KumoApp,
  services: { webhookEndpoints?: WebhookEndpointServices },
  authenticate: Authenticate,
): void {
  const clock = services.webhookEndpoints?.clock ?? systemClock;
  // The store seals and opens secrets with the server key: without it every route is 503 (never a half-working one).
  const store = () => requireSecrets(services.webhookEndpoints?.store);
  const onRequest = authenticate('batch');
  const common = { security: [{ bearer: [] }] };

  app.post(
    '/v1/webhook-endpoints',
    {
      schema: {
        ...common,
        summary: 'Register a webhook endpoint (its signing secret is shown once)',
        operationId: 'createWebhookEndpoint',
        body: CreateBodySchema,
        response: { 201: WithSecretResponseSchema, ...problemResponses([413, 415], { authenticated: true }) },
      },
      onRequest,
    },
    async (request, reply) => {
      const endpoints = store();
      const url = await checkEndpointUrl(request.body.url, services.webhookEndpoints!.urlPolicy);
      const { endpoint, secret } = await endpoints.create({
        id: newId('whe'),
        accountId: request.caller!.account.id,
        url: url.href,
        events: request.body.events ?? [...eventTypes],
        createdAt: new Date(clock.now()).toISOString(),
      });
      return reply.code(201).send({ request_id: String(request.id), endpoint: { ...shown(endpoint), secret } });
    },
  );

  app.get(
    '/v1/webhook-endpoints',
    {
      schema: {
        ...common,
        summary: "The account's webhook endpoints (never their secrets)",
        operationId: 'listWebhookEndpoints',
        response: { 200: ListResponseSchema, ...problemResponses([], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => {
      const endpoints = await store().list(request.caller!.account.id);
      return { request_id: String(request.id), endpoints: endpoints.map(shown) };
    },
  );

  app.get(
    '/v1/webhook-endpoints/:id',
    {
      schema: {
        ...common,
        summary: 'One webhook endpoint (never its secret)',
        operationId: 'getWebhookEndpoint',
        params: IdParamsSchema,
        response: { 200: OneResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => {
      const endpoint = await store().get(request.params.id, request.caller!.account.id);
      if (!endpoint) throw notFound();
      return { request_id: String(request.id), endpoint: shown(endpoint) };
    },
  );

  app.delete(
    '/v1/webhook-endpoints/:id',
    {
      schema: {
        ...common,
        summary: 'Delete a webhook endpoint (its secrets are erased; nothing more is delivered to it)',
        operationId: 'deleteWebhookEndpoint',
        params: IdParamsSchema,
        response: {
          204: Type.Null({ description: 'Deleted; no content.' }),
          ...problemResponses([404, 414], { authenticated: true }),
        },
      },
      onRequest,
    },
    async (request, reply) => {
      const removed = await store().delete(
        request.params.id,
        request.caller!.account.id,
        new Date(clock.now()).toISOString(),
      );
      if (!removed) throw notFound();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/webhook-endpoints/:id/rotate-secret',
    {
      schema: {
        ...common,
        summary: 'A new signing secret, shown once; the previous one also signs for 24 hours',
        operationId: 'rotateWebhookEndpointSecret',
        params: IdParamsSchema,
        response: { 200: WithSecretResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => {
      const rotated = await store().rotate(
        request.params.id,
        request.caller!.account.id,
        new Date(clock.now()).toISOString(),
      );
      if (!rotated) throw notFound();
      return { request_id: String(request.id), endpoint: { ...shown(rotated.endpoint), secret: rotated.secret } };
    },
  );
}
