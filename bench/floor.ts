// The floor: the least a service could do per page, fetching over loopback and parsing with Kumo's own parser.
// Run by bench/run.ts as a child process (argv[2]: a ChildJob JSON file); nothing is extracted or stored.
import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { childWindow, closedLoop, type ChildJob } from './load.ts';

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ChildJob;

function charsetOf(contentType: string | null): string {
  const match = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1] ?? 'utf-8';
}

async function page(i: number): Promise<boolean> {
  const response = await fetch(job.targets[i % job.targets.length]!.url);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder(charsetOf(response.headers.get('content-type'))).decode(bytes);
  const document = parseDocument(text, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  return response.status === 200 && document.children.length > 0;
}

await closedLoop(job.concurrency, job.warmup, page);
await childWindow(() => closedLoop(job.concurrency, job.total, page));
