// `kumo origin serve`: a saved page at its URL's path on 127.0.0.1, for KUMO_CONNECT_TO (origin.ts serves it).
import { int, parse, print, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { originHelp } from './origin-help.js';

/** RFC 9110 token characters, and a quoted-string of visible ASCII, space and tab. */
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t \\x20-\\x7e])*"';
const mediaTypePattern = new RegExp(`^${token}/${token}(?:[ \\t]*;[ \\t]*${token}=(?:${token}|${quoted}))*$`);

/** RFC 9110 §8.3.1 media-type: type/subtype with optional parameters; nothing else reaches the header. */
function isMediaType(value: string): boolean {
  return mediaTypePattern.test(value);
}

/** Runs until interrupted; prints where it serves (stderr) and the origin as JSON (stdout). */
export async function origin(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'serve') throw new UsageError(commandHelpText(originHelp));
  const { values } = parse(rest, {
    url: { type: 'string' },
    file: { type: 'string' },
    port: { type: 'string' },
    'content-type': { type: 'string' },
  });
  if (values.url === undefined || values.file === undefined) throw new UsageError(commandHelpText(originHelp));
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new UsageError(`--url ${values.url} is not an absolute URL`);
  }
  const port = int(values.port ?? '9000', 'port')!;
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  const contentType = values['content-type'];
  // Checked here, not at the first request: a CR/LF or other byte a header cannot carry would crash the server then.
  if (contentType !== undefined && !isMediaType(contentType)) {
    throw new UsageError(
      `--content-type must be a media type such as text/html or "text/html; charset=Shift_JIS" (RFC 9110 §8.3.1)`,
    );
  }
  const { serveOrigin } = await import('./origin.js');
  let running;
  try {
    running = await serveOrigin({
      url,
      file: values.file,
      port,
      ...(contentType !== undefined ? { contentType } : {}),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw new UsageError(`--file ${values.file} does not exist`);
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use; pick another with --port`);
    throw error;
  }
  process.stderr.write(`serving ${values.file} as ${url.pathname} on ${running.url} (Ctrl-C stops)\n`);
  print({ origin: running.url, path: url.pathname, connect_to: `${url.hostname}=${running.url}` });
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
