// The published webhook bodies: one entry per event type Kumo sends, each body a component, and the monitor bodies'
// schemas the same shapes the notifier's TypeScript types promise (a drift fails to compile here). That real
// deliveries match them is checked end to end (batch-scenarios.ts, monitor-scenarios.ts).
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { pino } from 'pino';
import type Type from 'typebox';
import { buildApp, type AppServices } from './app.js';
import { eventTypes } from '../batches/batch-store.js';
import { monitorEventTypes } from '../monitors/model.js';
import type {
  MonitorAlertData,
  MonitorCheckFailedData,
  MonitorPausedData,
  MonitorTargetRemovedData,
} from '../monitors/messages.js';
import {
  webhookComponentByType,
  webhookEventSchemas,
  type MonitorAlertEventSchema,
  type MonitorCheckFailedEventSchema,
  type MonitorPausedEventSchema,
  type MonitorTargetRemovedEventSchema,
} from './webhook-schemas.js';
import { documentValidators } from '../../test/support/openapi.js';

type Json = Record<string, any>;
let doc: Json;

beforeAll(async () => {
  const app = await buildApp({} as AppServices, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  doc = (await app.inject('/openapi.json')).json();
  await app.close();
});

describe('webhooks in /openapi.json', () => {
  it('has one entry per event type Kumo sends (batch and monitor), each a POST of its component', () => {
    const sent = [...eventTypes, ...monitorEventTypes].sort();
    expect(Object.keys(webhookComponentByType).sort()).toEqual(sent);
    expect(Object.keys(doc.webhooks).sort()).toEqual(sent);
    for (const type of sent) {
      const schema = doc.webhooks[type].post.requestBody.content['application/json'].schema;
      expect(schema).toEqual({ $ref: `#/components/schemas/${webhookComponentByType[type]}` });
    }
    for (const name of Object.keys(webhookEventSchemas)) expect(doc.components.schemas[name]).toBeDefined();
    // And the monitor bodies are the shapes the notifier's types promise: a drift fails `npm run typecheck` here.
    type DataOf<S extends Type.TSchema> = Type.Static<S> extends { data: infer D } ? D : never;
    expectTypeOf<MonitorAlertData>().toExtend<DataOf<typeof MonitorAlertEventSchema>>();
    expectTypeOf<MonitorCheckFailedData>().toExtend<DataOf<typeof MonitorCheckFailedEventSchema>>();
    expectTypeOf<MonitorTargetRemovedData>().toExtend<DataOf<typeof MonitorTargetRemovedEventSchema>>();
    expectTypeOf<MonitorPausedData>().toExtend<DataOf<typeof MonitorPausedEventSchema>>();
  });

  it("each component takes its own types only, and a full item's result is the published BatchResult", () => {
    const validatorAt = documentValidators(doc);
    const body = (type: string) => validatorAt(`/webhooks/${type}/post/requestBody/content/application~1json/schema`);
    const alert = doc.components.schemas.MonitorAlertEvent.examples[0];
    expect(body('monitor.alert')(alert)).toBe(true);
    expect(body('monitor.paused')(alert)).toBe(false);
    expect(body('monitor.alert')({ ...alert, data: { ...alert.data, changes: [{ field: 'colour' }] } })).toBe(false);
    const succeeded = doc.components.schemas.BatchItemSucceededEvent.examples[0];
    expect(body('item.succeeded')(succeeded)).toBe(true);
    expect(body('item.failed')(succeeded)).toBe(false);
    const withoutPrice = structuredClone(succeeded);
    delete withoutPrice.data.result.data.price;
    expect(body('item.succeeded')(withoutPrice)).toBe(false);
    const ended = doc.components.schemas.BatchEndedEvent.examples[0];
    expect(body('batch.cancelled')({ ...ended, type: 'batch.cancelled' })).toBe(true);
    expect(body('batch.completed')({ ...ended, timestamp: 'yesterday' })).toBe(false);
  });
});
