// The process side of `kumo batch` and `kumo monitors`, API clients (KUMO_BASE_URL, KUMO_API_KEY): stdout, files, the
// clock; the commands themselves (batch-command.ts, monitors-command.ts) are tested with fakes of these.
import { once } from 'node:events';
import { open, readFile } from 'node:fs/promises';
import { loadConfigFromProcess } from '../config.js';
import { systemClock } from '../time/clock.js';
import { UsageError } from './args.js';
import { batchCommand, type Sink } from './batch-command.js';
import { monitorsCommand } from './monitors-command.js';
import { languageOf } from './monitors-format.js';
import { BatchApiClient } from './batch-client.js';

/** stdout as a Sink: waits when the pipe is full, so a large batch's results are not all held in memory. */
const stdoutSink: Sink = {
  write: async (text) => {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  },
  close: async () => {},
};

async function fileSink(file: string): Promise<Sink> {
  let handle;
  try {
    handle = await open(file, 'w');
  } catch {
    throw new UsageError(`cannot write ${file}`);
  }
  return { write: async (text) => void (await handle.write(text)), close: () => handle.close() };
}

/** `kumo batch …`: an API client (KUMO_BASE_URL, KUMO_API_KEY), not an operator's tool on the storage. */
export async function batch(args: string[]): Promise<void> {
  const { client } = loadConfigFromProcess();
  if (args[0] !== undefined && ['submit', 'status', 'items', 'cancel'].includes(args[0]) && client.apiKey === '')
    throw new UsageError('kumo batch needs KUMO_API_KEY (a key allowed the batch operation) and KUMO_BASE_URL');
  process.exitCode = await batchCommand(args, {
    client: new BatchApiClient({ baseUrl: client.baseUrl, apiKey: client.apiKey, clock: systemClock }),
    clock: systemClock,
    stdout: stdoutSink,
    stderr: process.stderr,
    readFile: (file) => readFile(file),
    openOut: fileSink,
  });
}

/** `kumo monitors …`: an API client like `kumo batch` (KUMO_BASE_URL, KUMO_API_KEY). */
export async function monitors(args: string[]): Promise<void> {
  const { client } = loadConfigFromProcess();
  if (args[0] !== undefined && ['create', 'list', 'run'].includes(args[0]) && client.apiKey === '')
    throw new UsageError('kumo monitors needs KUMO_API_KEY (a key allowed the monitor operation) and KUMO_BASE_URL');
  process.exitCode = await monitorsCommand(args, {
    client: new BatchApiClient({ baseUrl: client.baseUrl, apiKey: client.apiKey, clock: systemClock }),
    clock: systemClock,
    stdout: process.stdout,
    stderr: process.stderr,
    readFile: (file) => readFile(file),
    // Node's default locale comes from LC_ALL, LC_MESSAGES or LANG (config.ts alone reads the environment).
    language: languageOf(new Intl.DateTimeFormat().resolvedOptions().locale),
  });
}
