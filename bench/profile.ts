// Summarizes V8 CPU profiles (.cpuprofile, from `npm run bench -- --profile DIR`): where the sampled time went, by
// function and by package or source folder. Usage: node bench/profile.ts DIR [top].
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: node bench/profile.ts DIR [top]');
const top = Number(process.argv[3] ?? 30);

/** A package name for node_modules code, `kumo:<folder>` for ours, else the runtime's own. */
function areaOf(url: string): string {
  if (url === '') return '(native / GC / idle)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const dist = url.indexOf('/dist/');
  if (dist !== -1) {
    const parts = url.slice(dist + '/dist/'.length).split('/');
    return `kumo:${parts.length > 1 ? parts[0] : parts[0]!.replace(/\.js$/, '')}`;
  }
  if (url.startsWith('node:')) return 'node:internals';
  return url;
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self]
    .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
    .reduce((a, [, t]) => a + t, 0);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, time] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const where = url ? `${areaOf(url)} ${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    const area = areaOf(url);
    byArea.set(area, (byArea.get(area) ?? 0) + time);
  }
  const busy = total - idle;
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1)} %`;
  console.log(`\n## ${file}: ${(busy / 1000).toFixed(0)} ms busy of ${(total / 1000).toFixed(0)} ms sampled\n`);
  console.log('| area | self time | share of busy |');
  console.log('|---|---:|---:|');
  for (const [area, t] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`| ${area} | ${(t / 1000).toFixed(0)} ms | ${pct(t)} |`);
  console.log('\n| function | self time | share of busy |');
  console.log('|---|---:|---:|');
  for (const [name, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${name.replace(/\|/g, '\\|')} | ${(t / 1000).toFixed(0)} ms | ${pct(t)} |`);
}
