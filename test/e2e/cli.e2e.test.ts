// The reviewer's CLI as a built process: normalize, extract from stdin, and `sites record` against a local origin.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToSpec, startOrigin, type Origin } from '../support/origin.js';
import { repoRoot } from '../support/kumo-process.js';

interface Run {
  code: number | null;
  out: string;
  err: string;
}

async function kumo(args: string[], options: { input?: Buffer; env?: Record<string, string> } = {}): Promise<Run> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/cli/kumo.js'), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', KUMO_DATA_DIR: tmp, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  child.stdin.end(options.input ?? Buffer.alloc(0));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

const fixtures = path.join(repoRoot, 'src/sites/ikebe-gakki/fixtures');
const itemUrl = 'https://www.ikebe-gakki.com/c/c-/gt/gt13/gt131234/123456';
let tmp: string;
let origin: Origin;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'kumo-cli-'));
  origin = await startOrigin();
  origin.route('GET', '/c/c-/gt/gt13/gt131234/123456', {
    status: 200,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
    body: await readFile(path.join(fixtures, 'modelled-no-json-ld.html')),
  });
});
afterAll(async () => {
  await origin?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('kumo normalize', () => {
  it.each([
    [['price', '10,000円(税込11,000円)'], { amount: 11000, currency: 'JPY', tax: 'included' }],
    [['date', '平成32年1月1日'], { value: '2020-01-01' }],
    [['date', '2023年2月29日'], { value: null, reason: 'invalid_date' }],
    [['number', '△485百万円'], { value: -485000000 }],
    [['number', 'x'], { value: null, reason: 'confidential' }],
    [['text', '１９９５〜２００１年　ｶﾞ'], { value: '1995~2001年 ガ', profile: 'ja-extract' }],
    [['id', '--type', 'isbn', '4-00-416004-9'], { valid: true, normalized: '9784004160045', idType: 'isbn' }],
    [['id', '--type', 'phone', '03-1234-567'], { valid: false, normalized: null, idType: 'phone' }],
    // Issue 7 §6: the CLI prints what the library reads, multipliers, 総額表示, counters, weekdays, 020 numbers.
    [['price', '1億2千万円'], { amount: 120000000, currency: 'JPY', tax: 'unknown' }],
    [['price', '1千1000円'], { amount: null, currency: 'JPY', tax: 'unknown' }],
    [
      ['price', '1,100円(税別価格1,000円、税100円)'],
      { amount: 1100, currency: 'JPY', tax: 'included', price_excluding_tax: 1000 },
    ],
    [['number', '1万5千人'], { value: 15000, counter: '人' }],
    [['number', '2万万'], { value: null, reason: 'not_a_number' }],
    [['date', '2024年4月2日(火曜日)'], { value: '2024-04-02' }],
    [['date', '明治5年12月2日'], { value: null, reason: 'invalid_date' }],
    [['id', '--type', 'phone', '020-1234-5678'], { valid: true, normalized: '+812012345678', idType: 'phone' }],
  ])('%j', async (args, expected) => {
    const run = await kumo(['normalize', ...args]);
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toEqual(expected);
  });

  it('refuses an unknown id type with a usage error', async () => {
    const run = await kumo(['normalize', 'id', '--type', 'iban', 'x']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--type must be one of/);
  });
});

describe('kumo extract', () => {
  it('reads the page from stdin and prints data, provenance and warnings', async () => {
    const run = await kumo(['extract', '--site', 'ikebe_gakki', '--url', itemUrl], {
      input: await readFile(path.join(fixtures, 'modelled-no-json-ld.html')),
    });
    expect(run.code, run.err).toBe(0);
    const printed = JSON.parse(run.out) as Record<string, unknown>;
    const expected = JSON.parse(await readFile(path.join(fixtures, 'modelled-no-json-ld.expected.json'), 'utf8'));
    expect(printed.data).toEqual(expected);
    expect(Object.keys(printed.provenance as object)).toEqual(expect.arrayContaining(['title', 'price']));
    expect(Array.isArray(printed.warnings)).toBe(true);
  });
});

describe('kumo sites record', () => {
  it('fetches through KUMO_CONNECT_TO and writes an unreviewed fixture draft into --out', async () => {
    const out = path.join(tmp, 'fixtures');
    const run = await kumo(['sites', 'record', itemUrl, '--name', 'stand-draft', '--out', out], {
      env: { KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) },
    });
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ site: 'ikebe_gakki', pageType: 'item', dir: out });
    expect(origin.hits('/c/c-/gt/gt13/gt131234/123456')).toBe(1);

    const page = await readFile(path.join(out, 'stand-draft.html'));
    expect(page.equals(await readFile(path.join(fixtures, 'modelled-no-json-ld.html')))).toBe(true);
    const meta = JSON.parse(await readFile(path.join(out, 'stand-draft.meta.json'), 'utf8'));
    expect(meta).toMatchObject({
      source: 'recorded',
      page: 'stand-draft.html',
      url: itemUrl,
      contentType: 'text/html; charset=UTF-8',
    });
    expect(Date.parse(meta.recordedAt)).not.toBeNaN();
    const draft = JSON.parse(await readFile(path.join(out, 'stand-draft.expected.json'), 'utf8'));
    expect(draft).toMatchObject({ reviewed: false, title: 'ST-250 ギタースタンド【在庫処分特価】', price: 4400 });
  });

  it('refuses a host that is not a supported site', async () => {
    const run = await kumo(['sites', 'record', 'https://shop.example.net/item/1', '--out', path.join(tmp, 'x')]);
    expect(run.code).not.toBe(0);
    expect(run.err).toMatch(/no supported site/);
  });
});
