// Build step (`npm run build`): checks that the committed verification record is current, then ships it in dist/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SiteRegistry, siteCatalogue } from './registry.js';
import {
  readVerificationRecord,
  recordProblems,
  shippedRecordPath,
  verificationRecordPath,
  verifyAll,
  type VerifyOptions,
} from './verification.js';

export interface ShipOptions {
  /** The committed record; default src/sites/verification-record.json. */
  from?: string;
  /** Where the server will read it; default beside the built verification module (dist/sites/). */
  to?: string;
  corpusDir?: VerifyOptions['corpusDir'];
}

/**
 * Writes the record to `to` only when it is current; returns the problems otherwise (and leaves no record behind, so
 * a stale build cannot start rather than serve at levels nothing verified).
 */
export async function shipVerificationRecord(options: ShipOptions = {}): Promise<string[]> {
  const from = options.from ?? verificationRecordPath;
  const to = options.to ?? shippedRecordPath;
  if (path.resolve(from) === path.resolve(to)) return [`refusing to ship ${from} onto itself: run from dist/`];
  rmSync(to, { force: true });
  const record = readVerificationRecord(from);
  if (!record) return [`${from} is missing or not JSON`];
  const registry = new SiteRegistry(siteCatalogue, { record });
  const live = await verifyAll(registry, options.corpusDir ? { corpusDir: options.corpusDir } : {});
  const problems = recordProblems(record, live);
  if (problems.length > 0) return problems;
  mkdirSync(path.dirname(to), { recursive: true });
  writeFileSync(to, `${JSON.stringify(record, null, 2)}\n`);
  return [];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = await shipVerificationRecord();
  if (problems.length > 0) {
    process.stderr.write(
      `build: the verification record is not current (regenerate with \`npm run kumo -- sites verify --record\`, ` +
        `which needs the shared corpus):\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`build: verification record shipped to ${shippedRecordPath}\n`);
}
