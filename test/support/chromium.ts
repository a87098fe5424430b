// Chromium for browser tests: where Debian installs it, and the browser processes a test has started (from /proc).
import { readdirSync, readFileSync } from 'node:fs';
import { findChromium } from '../../src/browser/browser-pool.js';

/** Debian's chromium-headless-shell (or a full Chromium), or null: the caller skips with a message naming `what`. */
export function chromiumForTests(what: string): string | null {
  const path = findChromium('');
  if (!path)
    console.warn(
      `${what} skipped: no Chromium binary (apt-get install chromium-headless-shell; .ci/run does this in CI)`,
    );
  return path;
}

/**
 * Command line and environment of each Chromium browser process under `ancestor` (the process Playwright drives over
 * a pipe, not Debian's launcher script or the browser's helpers), read from /proc.
 */
export function browserProcessesUnder(ancestor: number): { cmdline: string[]; environ: string }[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parents.set(Number(name), Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: { cmdline: string[]; environ: string }[] = [];
  for (const pid of parents.keys()) {
    let at = parents.get(pid);
    while (at !== undefined && at > 1 && at !== ancestor) at = parents.get(at);
    if (at !== ancestor) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      if (!cmdline.includes('--remote-debugging-pipe')) continue;
      found.push({ cmdline, environ: readFileSync(`/proc/${pid}/environ`, 'latin1') });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
