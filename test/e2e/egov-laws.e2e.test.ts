// End to end over real HTTP for egov_laws: the real 行政手続法 law XML served by a local origin as the v2 API would,
// asked for by its law_file/xml, law_data and viewer URLs (all fetched as law_file/xml).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, repoRoot, type KumoProcess } from '../support/kumo-process.js';

const corpus = path.resolve(repoRoot, '../shared/corpus/real');
const REVISION = '405AC0000000088_20240401_504AC0100000052';
const file = path.join(corpus, `e-gov-law/${REVISION}.xml`);
const available = existsSync(file);
if (!available) console.warn(`skipping egov_laws end-to-end checks: ${corpus} is absent`);

let origin: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  if (!available) return;
  origin = await startOrigin();
  origin.route('GET', `/api/2/law_file/xml/${REVISION}`, {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: await readFile(file),
  });
  origin.route('GET', '/api/2/law_file/xml/405AC0000000088', {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: await readFile(file),
  });
  origin.route('GET', '/api/2/law_file/xml/999AC0000000999', {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: Buffer.from('<?xml version="1.0"?><DataRoot><Result><Code>1</Code></Result></DataRoot>'),
  });
  kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ 'laws.e-gov.go.jp': origin.url }) });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

describe.skipIf(!available)('POST /v1/scrape on egov_laws', () => {
  it('document: title, law number, ISO promulgation date and the articles of 行政手続法', async () => {
    const res = await scrape(kumo.baseUrl, { url: `https://laws.e-gov.go.jp/api/2/law_file/xml/${REVISION}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'egov_laws', page_type: 'document' });
    expect(res.body.extractor).toMatchObject({ id: 'egov_laws/document', coverage: 'stable' });
    expect(res.body.data).toMatchObject({
      title: '行政手続法',
      law_number: '平成五年法律第八十八号',
      law_id: '405AC0000000088',
      law_revision_id: REVISION,
      promulgation_date: '1993-11-12',
    });
    expect(res.body.data.articles).toHaveLength(48);
    expect(res.body.data.articles[36]).toMatchObject({ number: '36_2', title: '第三十六条の二' });
  });

  it.each([
    ['law_data', `https://laws.e-gov.go.jp/api/2/law_data/${REVISION}`],
    ['the viewer', 'https://laws.e-gov.go.jp/law/405AC0000000088/20240401_504AC0100000052'],
  ])('document by %s URL: fetched as law_file/xml of the same revision', async (_name, url) => {
    const before = origin.requests(`/api/2/law_file/xml/${REVISION}`).length;
    const res = await scrape(kumo.baseUrl, { url });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'egov_laws', page_type: 'document' });
    expect(res.body.data).toMatchObject({
      title: '行政手続法',
      law_id: '405AC0000000088',
      law_revision_id: REVISION,
      promulgation_date: '1993-11-12',
    });
    expect(res.body.data.articles).toHaveLength(48);
    expect(origin.requests(`/api/2/law_file/xml/${REVISION}`).length).toBe(before + 1);
    // The page URL itself is never asked for: only the law XML (and robots.txt).
    expect(origin.requests().filter((r) => /^\/(?:law\/|api\/2\/law_data\/)/.test(r.url))).toEqual([]);
  });

  it('law_data by law id keeps asof in the law_file/xml request; other law_data parameters are 422', async () => {
    const res = await scrape(kumo.baseUrl, {
      url: 'https://laws.e-gov.go.jp/api/2/law_data/405AC0000000088?asof=2024-04-01',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: '行政手続法', law_id: '405AC0000000088', law_revision_id: null });
    expect(origin.requests('/api/2/law_file/xml/405AC0000000088').at(-1)!.url).toBe(
      '/api/2/law_file/xml/405AC0000000088?asof=2024-04-01',
    );
    const other = await scrape(kumo.baseUrl, {
      url: 'https://laws.e-gov.go.jp/api/2/law_data/405AC0000000088?elm=MainProvision',
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('page_not_supported');
  });

  it('an XML source has no HTML output', async () => {
    const res = await scrape(kumo.baseUrl, {
      url: `https://laws.e-gov.go.jp/api/2/law_file/xml/${REVISION}`,
      params: { mode: 'html' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('page_not_supported');
  });

  it('an error answer is extraction_failed', async () => {
    const res = await scrape(kumo.baseUrl, { url: 'https://laws.e-gov.go.jp/api/2/law_file/xml/999AC0000000999' });
    expect(res.body.code).toBe('extraction_failed');
  });
});
