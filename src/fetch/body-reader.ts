// Reads a response body under a byte cap that counts decoded bytes, so compression bombs stop at the cap.
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** More stacked encodings than this is hostile, not useful (research §7). */
export const maxContentEncodings = 2;

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** The Content-Encoding is unknown, stacked too deep, or the bytes do not decode. */
export class BodyEncodingError extends Error {
  override name = 'BodyEncodingError';
}

/** `gzip, br` → ['gzip', 'br'] in the order applied by the sender; throws BodyEncodingError on anything unusable. */
export function parseContentEncoding(header: string | undefined): string[] {
  if (header === undefined) return [];
  const layers = header
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'identity')
    .map((token) => (token === 'x-gzip' ? 'gzip' : token));
  if (layers.length > maxContentEncodings) {
    throw new BodyEncodingError(`more than ${maxContentEncodings} content encodings`);
  }
  for (const layer of layers) {
    if (layer !== 'gzip' && layer !== 'deflate' && layer !== 'br') {
      throw new BodyEncodingError('an unsupported content encoding');
    }
  }
  return layers;
}

function decoderFor(layer: string): Transform {
  // Lenient flushing, like browsers: a body cut short after the last full block still yields what arrived.
  switch (layer) {
    case 'gzip':
      return createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    case 'deflate':
      // RFC 9110 "deflate" is the zlib format; raw-deflate senders are rare today and fail to decode.
      return createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    default:
      return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
  }
}

/**
 * Collects `body`, undoing `contentEncoding`, and fails with BodyTooLargeError as soon as either the wire bytes or
 * the decoded bytes pass `maxBytes` (the stream is destroyed, not drained). Aborting `signal` rejects with its reason.
 */
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array> {
  let layers: string[];
  try {
    layers = parseContentEncoding(contentEncoding);
  } catch (error) {
    // Not read at all: drop it with its socket (undici reports the abort as an error nobody needs).
    body.on('error', () => undefined);
    body.destroy();
    throw error;
  }
  if (layers.length === 0) return readIdentity(body, maxBytes, signal);
  let wireBytes = 0;
  const countWire = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      wireBytes += chunk.length;
      if (wireBytes > maxBytes) callback(new BodyTooLargeError('body over the cap'));
      else callback(null, chunk);
    },
  });
  // Decoders run in the reverse of the order the sender applied them.
  const decoders = layers.reverse().map(decoderFor);
  const chunks: Buffer[] = [];
  let decodedBytes = 0;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      decodedBytes += chunk.length;
      if (decodedBytes > maxBytes) throw new BodyTooLargeError('decoded body over the cap');
      chunks.push(chunk);
    }
  };
  try {
    // Spelled out per depth: pipeline's typings do not accept a spread of transforms.
    const [outer, inner] = decoders;
    if (outer && inner) await pipeline(body, countWire, outer, inner, collect, { signal });
    else if (outer) await pipeline(body, countWire, outer, collect, { signal });
    else await pipeline(body, countWire, collect, { signal });
  } catch (error) {
    if (signal.aborted || error instanceof BodyTooLargeError) throw error;
    // zlib errors carry codes such as Z_DATA_ERROR (brotli: ERR__ERROR_FORMAT_…); anything else came from the socket and is the caller's to judge.
    if (isZlibError(error)) {
      // An empty body with an encoding label (a HEAD-like answer) is not corrupt, just empty.
      if (wireBytes === 0) return new Uint8Array(0);
      throw new BodyEncodingError('the body does not decode', { cause: error });
    }
    throw error;
  }
  return joined(chunks, decodedBytes);
}

/**
 * The common case, a body sent as it is: read in a plain loop. pipeline() and a counting Transform cost more of the
 * event loop per call than the bytes themselves (and pipeline makes an AbortController and a DOMException per call).
 * Leaving the loop early (cap, abort, error) destroys the stream, so an oversized body is dropped, not drained.
 */
async function readIdentity(body: Readable, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const onAbort = () => body.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  if (signal.aborted) {
    body.on('error', () => undefined);
    onAbort();
    throw signal.reason;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new BodyTooLargeError('body over the cap');
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw signal.reason;
  return joined(chunks, bytes);
}

/** The chunks as one plain Uint8Array (callers hand it on as bytes, not as a Buffer). */
function joined(chunks: Buffer[], length: number): Uint8Array {
  const buffer = Buffer.concat(chunks, length);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('Z_') || code.startsWith('ERR__ERROR') || code.startsWith('ERR_BROTLI'))
  );
}
