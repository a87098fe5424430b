// Process entry: refuses an older Node in one line, then loads the server. ESM hoists static imports, so the server
// (whose storage imports node:sqlite) is imported only after the check, never beside it.
import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
await import('./server.js');
