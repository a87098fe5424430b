// The ZIP reader against hostile archives built in code: every one answers a catalogue error, none crashes.
import { describe, expect, it } from 'vitest';
import { isKumoError } from '../errors.js';
import { normalizePage } from './normalize-page.js';
import { readZip, zipLimits } from './zip.js';
import { writeZip } from './zip-write.js';

const text = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (isKumoError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
};
/** Where the central directory starts in a one-entry archive from writeZip. */
const centralOf = (zip: Buffer) => zip.readUInt32LE(zip.length - 22 + 16);

describe('readZip', () => {
  it('reads stored and deflated entries with their names', () => {
    const zip = writeZip([
      { name: 'XBRL/PublicDoc/a.htm', data: text('<p>貸借対照表</p>') },
      { name: 'XBRL/PublicDoc/b.xsd', data: text('stored'), method: 0 },
    ]);
    const archive = readZip(zip);
    expect(archive.entries.map((e) => e.name)).toEqual(['XBRL/PublicDoc/a.htm', 'XBRL/PublicDoc/b.xsd']);
    expect(Buffer.from(archive.read(archive.entries[0]!)).toString('utf8')).toBe('<p>貸借対照表</p>');
    expect(Buffer.from(archive.read(archive.entries[1]!)).toString('utf8')).toBe('stored');
  });

  it('stops a zip bomb by what inflation really produces, not by what the archive declares', () => {
    const zip = writeZip([{ name: 'bomb.htm', data: new Uint8Array(4 * 1024 * 1024) }]);
    expect(zip.length).toBeLessThan(10_000);
    // The archive declares a small size: the cap still holds on the real output.
    zip.writeUInt32LE(100, centralOf(zip) + 24);
    const limits = { ...zipLimits, maxEntryBytes: 1024 * 1024 };
    const archive = readZip(zip, limits);
    expect(codeOf(() => archive.read(archive.entries[0]!))).toMatch(/^content_too_large: .*inflates past the cap/);
  });

  it('caps all entries together', () => {
    const zip = writeZip([
      { name: 'a', data: new Uint8Array(600) },
      { name: 'b', data: new Uint8Array(600) },
    ]);
    const archive = readZip(zip, { ...zipLimits, maxTotalBytes: 1000 });
    archive.read(archive.entries[0]!);
    expect(codeOf(() => archive.read(archive.entries[1]!))).toMatch(/^content_too_large/);
  });

  it('refuses an entry whose real size differs from the declared one (lying sizes)', () => {
    const zip = writeZip([{ name: 'a.htm', data: text('x'.repeat(500)) }]);
    zip.writeUInt32LE(400, centralOf(zip) + 24);
    const archive = readZip(zip);
    expect(codeOf(() => archive.read(archive.entries[0]!))).toMatch(/^extraction_failed: .*not the size it declares/);
  });

  it('refuses too many entries', () => {
    const zip = writeZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: text('x') })));
    expect(codeOf(() => readZip(zip, { ...zipLimits, maxEntries: 10 }))).toMatch(
      /^content_too_complex: .*more than 10 entries/,
    );
  });

  it('checks the CRC-32', () => {
    const zip = writeZip([{ name: 'a.htm', data: text('balance sheet') }]);
    zip.writeUInt32LE(0xdeadbeef, centralOf(zip) + 16);
    const archive = readZip(zip);
    expect(codeOf(() => archive.read(archive.entries[0]!))).toMatch(/^extraction_failed: .*CRC-32/);
  });

  it('refuses a truncated archive, and bytes that are not a ZIP', () => {
    const zip = writeZip([{ name: 'a.htm', data: text('balance sheet') }]);
    expect(codeOf(() => readZip(zip.subarray(0, zip.length - 5)))).toMatch(/^extraction_failed: .*end-of-central/);
    expect(codeOf(() => readZip(zip.subarray(0, 10)))).toMatch(/^extraction_failed: .*truncated/);
    expect(codeOf(() => readZip(text('<html>not a zip</html>')))).toMatch(/^extraction_failed/);
    // The end record kept, the entries cut away: the directory now points past what is there.
    const cut = Buffer.concat([zip.subarray(0, 20), zip.subarray(centralOf(zip))]);
    expect(codeOf(() => readZip(cut))).toMatch(/^extraction_failed/);
  });

  it('refuses encrypted entries, other methods, ZIP64 and multi-disk archives with a reason', () => {
    const encrypted = writeZip([{ name: 'a.htm', data: text('secret') }]);
    encrypted.writeUInt16LE(0x801, centralOf(encrypted) + 8);
    expect(codeOf(() => readZip(encrypted))).toMatch(/^extraction_failed: .*is encrypted/);

    const bzip = writeZip([{ name: 'a.htm', data: text('x') }]);
    bzip.writeUInt16LE(12, centralOf(bzip) + 10);
    expect(codeOf(() => readZip(bzip))).toMatch(/compression method 12/);

    const zip64 = writeZip([{ name: 'a.htm', data: text('x') }]);
    zip64.writeUInt32LE(0xffffffff, centralOf(zip64) + 24);
    expect(codeOf(() => readZip(zip64))).toMatch(/ZIP64/);

    const disks = writeZip([{ name: 'a.htm', data: text('x') }]);
    disks.writeUInt16LE(1, disks.length - 22 + 4);
    expect(codeOf(() => readZip(disks))).toMatch(/several disks/);
  });

  it('never treats a name as a path: traversal names are plain labels', () => {
    const archive = readZip(writeZip([{ name: '../../etc/passwd', data: text('x') }]));
    expect(archive.entries[0]!.name).toBe('../../etc/passwd');
  });
});

describe('the zip input kind', () => {
  it('lists entries, reads one as HTML by its own charset, and never resolves links against the key-bearing URL', () => {
    const page = normalizePage({
      body: writeZip([{ name: 'XBRL/PublicDoc/a.htm', data: text('<meta charset="utf-8"><a href="b.htm">b</a>') }]),
      headers: { 'content-type': 'application/octet-stream' },
      finalUrl: 'https://api.edinet-fsa.go.jp/api/v2/documents/S100TEST?type=1&Subscription-Key=SECRET',
      input: 'zip',
    });
    if (page.kind !== 'zip') throw new Error('not a zip page');
    expect(page.entries).toEqual([{ name: 'XBRL/PublicDoc/a.htm', size: 43 }]);
    const html = page.html('XBRL/PublicDoc/a.htm')!;
    expect(html.charset).toBe('utf-8');
    expect(JSON.stringify(html.document.children.map((n) => ('attribs' in n ? n.attribs : null)))).not.toContain(
      'SECRET',
    );
    expect(html.url).not.toContain('SECRET');
    expect(page.html('missing.htm')).toBeNull();
  });

  it('answers extraction_failed for a body that is not a ZIP', () => {
    const run = () =>
      normalizePage({
        body: text('<html><body>not an archive at all</body></html>'),
        headers: {},
        finalUrl: 'https://example.jp/',
        input: 'zip',
      });
    expect(codeOf(run)).toMatch(/^extraction_failed: the ZIP archive has no end-of-central-directory record/);
  });
});
