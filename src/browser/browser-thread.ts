// The browser thread: Playwright, its Chromium, every render and its egress proxy, away from the thread that serves.
import { parentPort, workerData } from 'node:worker_threads';
import { isKumoError } from '../errors.js';
import type { FetchedPage } from '../fetch/fetcher.js';
import { BrowserPool, type BrowserPoolOptions, type BrowserPoolState } from './browser-pool.js';
import {
  PlaywrightRenderer,
  type PlaywrightRendererOptions,
  type RenderJob,
  type RenderRecord,
} from './page-renderer.js';

/** What the serving thread gives the browser thread at its start: plain data only (functions cannot cross). */
export interface BrowserThreadSetup {
  pool: Omit<BrowserPoolOptions, 'onStateChange'>;
  renderer: Omit<PlaywrightRendererOptions, 'pool' | 'connectTo' | 'lookup' | 'observe' | 'finished'> & {
    /** KUMO_CONNECT_TO as [host, origin URL] pairs. */
    connectTo: [string, string][];
  };
}

/** A render's failure as it crosses: a KumoError's code, detail and extras, or only the words of anything else. */
export interface CrossedError {
  code: string | null;
  message: string;
  extras?: { retryAfterSeconds?: number; body?: Record<string, unknown> };
}

export type ToBrowserThread =
  | { type: 'render'; id: number; job: RenderJob }
  | { type: 'abort'; id: number }
  | { type: 'start'; id: number }
  | { type: 'close'; id: number };

export type FromBrowserThread =
  | { type: 'state'; state: BrowserPoolState }
  | { type: 'reached'; id: number }
  | { type: 'rendered'; id: number; page: FetchedPage }
  | { type: 'failed'; id: number; error: CrossedError }
  | { type: 'finished'; record: RenderRecord; host: string }
  | { type: 'done'; id: number };

const port = parentPort!;
const setup = workerData as BrowserThreadSetup;
const post = (message: FromBrowserThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const pool = new BrowserPool({ ...setup.pool, onStateChange: (state) => post({ type: 'state', state }) });
const renderer = new PlaywrightRenderer({
  ...setup.renderer,
  pool,
  connectTo: new Map(setup.renderer.connectTo.map(([host, origin]) => [host, new URL(origin)])),
  // Plain numbers and strings: copied to the serving thread for its metrics and the refusals log line.
  finished: (record, host) =>
    post({ type: 'finished', record: { ...record, refusedByProxy: [...record.refusedByProxy] }, host }),
});
const running = new Map<number, AbortController>();

port.on('message', (message: ToBrowserThread) => {
  switch (message.type) {
    case 'render':
      void render(message.id, message.job);
      break;
    case 'abort':
      running.get(message.id)?.abort(new Error('the call ended'));
      break;
    case 'start':
      void pool.start().then(() => post({ type: 'done', id: message.id }));
      break;
    case 'close':
      for (const controller of running.values()) controller.abort(new Error('the browser thread is closing'));
      void Promise.all([renderer.close(), pool.close()]).then(() => post({ type: 'done', id: message.id }));
      break;
  }
});

async function render(id: number, job: RenderJob): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const page = await renderer.render(job, controller.signal, () => post({ type: 'reached', id }));
    // The body's bytes are moved, not copied, when they fill their own buffer (TextEncoder's do).
    const own = page.body.byteOffset === 0 && page.body.byteLength === page.body.buffer.byteLength;
    post({ type: 'rendered', id, page }, own ? [page.body.buffer as ArrayBuffer] : []);
  } catch (error) {
    post({ type: 'failed', id, error: crossed(error) });
  } finally {
    running.delete(id);
  }
}

/** No stack and no cause crosses: the serving thread maps a plain error the way it would have in-process. */
function crossed(error: unknown): CrossedError {
  if (isKumoError(error)) {
    const extras = {
      ...(error.extras.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.extras.retryAfterSeconds }),
      ...(error.extras.body === undefined ? {} : { body: structuredClone(error.extras.body) }),
    };
    return { code: error.code, message: error.message, extras };
  }
  return { code: null, message: error instanceof Error ? error.message : String(error) };
}
