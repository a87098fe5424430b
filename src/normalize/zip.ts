// A ZIP archive read from memory (EDINET's filing packages), bounded against hostile archives; no path touches a disk.
import { crc32, inflateRawSync } from 'node:zlib';
import { KumoError } from '../errors.js';

/** Caps enforced on the real inflated output, never on the sizes an archive declares. */
export const zipLimits = {
  /** An EDINET package holds tens of files; thousands of entries is a hostile or wrong archive. */
  maxEntries: 2_000,
  /** One inflated entry; the largest inline-XBRL body in the corpus is about 0.5 MB. */
  maxEntryBytes: 16 * 1024 * 1024,
  /** All entries one page reads, together. */
  maxTotalBytes: 64 * 1024 * 1024,
} as const;

export interface ZipEntry {
  /** The name as stored (`XBRL/PublicDoc/0105310_honbun_….htm`); a label only, never a filesystem path. */
  name: string;
  /** 1-based place in the central directory: what an error detail names the entry by. */
  index: number;
  /** The size the archive declares; checked against the real output when the entry is read. */
  size: number;
  compressedSize: number;
  method: 0 | 8;
  crc: number;
  dataStart: number;
}

export interface ZipArchive {
  entries: readonly ZipEntry[];
  /** The entry's bytes: inflated within the remaining caps, length and CRC-32 checked. */
  read(entry: ZipEntry): Uint8Array;
}

export type ZipLimits = { [K in keyof typeof zipLimits]: number };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const broken = (why: string) => new KumoError('extraction_failed', `the ZIP archive ${why}`);

/**
 * Reads the central directory (the authoritative list, as every unzip tool does) and checks each local header
 * against it. Refused with a reason: ZIP64, multi-disk and encrypted archives, methods other than stored and deflate.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits = zipLimits): ZipArchive {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(buf);
  if (eocd >= 20 && buf.readUInt32LE(eocd - 20) === ZIP64_LOCATOR) throw broken('is ZIP64, which is not read');
  const disk = buf.readUInt16LE(eocd + 4);
  const cdDisk = buf.readUInt16LE(eocd + 6);
  const onDisk = buf.readUInt16LE(eocd + 8);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw broken('is ZIP64, which is not read');
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) throw broken('spans several disks, which is not read');
  if (count > limits.maxEntries)
    throw new KumoError('content_too_complex', `the ZIP archive has more than ${limits.maxEntries} entries`);
  if (cdOffset + cdSize > eocd) throw broken('is truncated (central directory out of range)');

  const entries: ZipEntry[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > cdOffset + cdSize || buf.readUInt32LE(at) !== CENTRAL)
      throw broken('has a damaged central directory');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const startDisk = buf.readUInt16LE(at + 34);
    const localOffset = buf.readUInt32LE(at + 42);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > cdOffset + cdSize) throw broken('has a damaged central directory');
    const rawName = buf.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: the name is UTF-8; otherwise it is CP437 in theory, and only compared with ASCII names here.
    const name = rawName.toString(flags & 0x800 ? 'utf8' : 'latin1');
    // A detail names an entry by its place in the directory, never by its name: the name is the target's text.
    const which = `entry ${i + 1}`;
    if (flags & 0x41) throw broken(`${which} is encrypted`);
    if (method !== 0 && method !== 8)
      throw broken(`${which} uses compression method ${method} (only stored and deflate)`);
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff || startDisk === 0xffff)
      throw broken('is ZIP64, which is not read');
    if (startDisk !== 0) throw broken('spans several disks, which is not read');
    if (localOffset + 30 > cdOffset || buf.readUInt32LE(localOffset) !== LOCAL)
      throw broken(`${which} has no local header where the directory says`);
    const localNameLength = buf.readUInt16LE(localOffset + 26);
    const localExtraLength = buf.readUInt16LE(localOffset + 28);
    if (!buf.subarray(localOffset + 30, localOffset + 30 + localNameLength).equals(rawName))
      throw broken(`${which} is named differently in its local header`);
    const dataStart = localOffset + 30 + localNameLength + localExtraLength;
    if (dataStart + compressedSize > cdOffset) throw broken(`is truncated (${which})`);
    if (method === 0 && compressedSize !== size) throw broken(`${which} states two sizes`);
    entries.push({ name, index: i + 1, size, compressedSize, method, crc, dataStart });
    at = end;
  }

  let inflated = 0;
  return {
    entries,
    read(entry) {
      const left = limits.maxTotalBytes - inflated;
      const cap = Math.min(limits.maxEntryBytes, left);
      // The declared size is the archive's claim; the cap is on what inflation really produces.
      if (entry.size > cap) throw tooLarge(entry, limits);
      const data = buf.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
      let out: Buffer;
      if (entry.method === 0) out = data;
      else {
        try {
          out = inflateRawSync(data, { maxOutputLength: Math.max(cap, 1) });
        } catch (error) {
          if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(entry, limits);
          throw broken(`entry ${entry.index} is not valid deflate data`);
        }
      }
      if (out.length !== entry.size) throw broken(`entry ${entry.index} is not the size it declares`);
      if (crc32(out) >>> 0 !== entry.crc) throw broken(`entry ${entry.index} fails its CRC-32 check`);
      inflated += out.length;
      return new Uint8Array(out);
    },
  };
}

function tooLarge(entry: ZipEntry, limits: ZipLimits): KumoError {
  return new KumoError(
    'content_too_large',
    `ZIP entry ${entry.index} inflates past the cap (${limits.maxEntryBytes} bytes per entry, ` +
      `${limits.maxTotalBytes} in all)`,
  );
}

/** The end record sits in the last 22 + 65,535 bytes (its comment is at most that long); searched backwards. */
function findEndOfCentralDirectory(buf: Buffer): number {
  if (buf.length < 22) throw broken('is truncated (shorter than an end record)');
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD && i + 22 + buf.readUInt16LE(i + 20) === buf.length) return i;
  }
  throw broken('has no end-of-central-directory record (not a ZIP, or truncated)');
}
