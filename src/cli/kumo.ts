#!/usr/bin/env node
// The `kumo` command's entry (package bin): refuses an older Node in one line, then loads the commands, which import
// node:sqlite through storage (ESM hoists static imports, so they are imported only after the check).
import { nodeVersionProblem } from '../node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
const { main } = await import('./commands.js');
await main(process.argv.slice(2));
