// The body of an extraction worker: its own copy of the site catalogue, and one produce() per message.
import { parentPort, workerData } from 'node:worker_threads';
import type { Extractor } from '../extract/extractor.js';
import { siteCatalogue } from '../sites/registry.js';
import { failureOf, produce, type OutputLimits, type ProduceJob } from './produce.js';

export interface WorkerRequest {
  id: number;
  job: ProduceJob;
}

export type WorkerReply =
  | { id: number; ok: true; produced: ReturnType<typeof produce> }
  | { id: number; ok: false; failure: ReturnType<typeof failureOf> };

const limits = (workerData as { limits: OutputLimits }).limits;
// Functions cannot cross threads: extractors are found here by id, from the same code the main thread runs.
const extractors = new Map<string, Extractor>(
  siteCatalogue
    .flatMap((site) =>
      site.pageTypes.flatMap((entry) => [entry.extractor, ...(entry.browser ? [entry.browser.extractor] : [])]),
    )
    .map((extractor) => [extractor.id, extractor] as const),
);

parentPort?.on('message', ({ id, job }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const extractor = extractors.get(job.extractorId);
    // A plain Error: its text stays in this process, the caller sees `internal`.
    if (!extractor) throw new Error(`no extractor ${job.extractorId} in the worker's catalogue`);
    reply = { id, ok: true, produced: produce(job, extractor, limits) };
  } catch (error) {
    reply = { id, ok: false, failure: failureOf(error) };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ ready: true });
