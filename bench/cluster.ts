// Kumo as a node:cluster of N server processes behind one port, for the benchmark's pool-against-cluster comparison
// (`npm run bench -- --cluster N`). Each process is dist/main.js with its own extraction pool; N from argv[2].
import cluster from 'node:cluster';
import path from 'node:path';

const size = Number(process.argv[2] ?? 2);
const main = path.resolve(import.meta.dirname, '../dist/main.js');
// PORT=0 in every process: the cluster hands all of them the one port the first one bound.
cluster.setupPrimary({ exec: main, args: [] });
for (let i = 0; i < size; i++) cluster.fork();
let exiting = false;
const stop = () => {
  exiting = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
cluster.on('exit', () => {
  if (!exiting) stop();
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
});
