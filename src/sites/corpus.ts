// Where the shared real-page corpus lives: beside the repository, read in place, never copied into it.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from this file's place in src/sites (or dist/sites). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `../shared/corpus/real` next to the repository; absent on machines that only have the project. */
export const corpusDir = path.resolve(repoRoot, '../shared/corpus/real');

export function corpusAvailable(): boolean {
  return existsSync(path.join(corpusDir, 'MANIFEST.md'));
}

export function corpusPath(relative: string): string {
  return path.join(corpusDir, relative);
}
