// Batches and signed webhooks end to end on the embedded default (one process, SQLite): handover and charging,
// signatures, the storage audit, SSRF refusals and fairness between accounts on one host (issue 20, "Done means").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBatchWorld, type BatchWorld } from '../support/batch-world.js';
import {
  fairnessScenario,
  handoverScenarios,
  publishedBodyScenarios,
  signatureScenarios,
  ssrfScenarios,
  storageScenarios,
} from '../support/batch-scenarios.js';

let world: BatchWorld;

beforeAll(async () => {
  world = await startBatchWorld({ mode: 'sqlite' });
});

afterAll(async () => {
  await world?.close();
});

describe('embedded mode (SQLite): webhooks and handover', () => {
  signatureScenarios(() => world);
  handoverScenarios(() => world);
  publishedBodyScenarios(() => world);
});

describe('embedded mode (SQLite): what is kept', () => {
  storageScenarios(() => world);
});

describe('embedded mode (SQLite): endpoint addresses', () => {
  ssrfScenarios(() => world);
});

describe('embedded mode (SQLite): fairness on one host', () => {
  let fair: BatchWorld;
  afterAll(async () => {
    await fair?.close();
  });

  it('B’s 10 items finish within the next 25 of the host while A has 5,000 queued; in flight never above 1', async () => {
    fair = await startBatchWorld({
      mode: 'sqlite',
      env: { KUMO_HOST_MAX_IN_FLIGHT: '1', KUMO_HOST_MIN_INTERVAL_MS: '5' },
    });
    await fairnessScenario(fair, 1);
    expect(fair.instances[0]!.output()).not.toMatch(/unhandled rejection|uncaught exception/i);
  }, 240_000);
});
