// Reads the Dockerfile as the container and Kubernetes tests check it: instructions, stages, a stage's ENV and CMD.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './kumo-process.js';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  image: string;
  body: Instruction[];
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
export function instructions(text: string): Instruction[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** Stages by name (`FROM image AS name`), each with its own instructions. */
export function stages(list: Instruction[]): Stage[] {
  const out: Stage[] = [];
  for (const instruction of list) {
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      out.push({ image: match![1]!, name: match![2] ?? String(out.length), body: [] });
    } else {
      out.at(-1)?.body.push(instruction);
    }
  }
  return out;
}

/** `ENV A=1 B=2` pairs of a stage. */
export function envOf(body: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of body.filter((i) => i.keyword === 'ENV'))
    for (const [, name, value] of args.matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g))
      env[name!] = value!.replace(/"/g, '');
  return env;
}

/** The stage's last CMD, in its exec (JSON) form. */
export function cmdOf(body: Instruction[]): string[] {
  return JSON.parse(body.filter((i) => i.keyword === 'CMD').at(-1)!.args) as string[];
}

/** This repository's Dockerfile, in stages; the last is the image `docker build .` makes. */
export function projectDockerfile(): Stage[] {
  return stages(instructions(readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8')));
}
