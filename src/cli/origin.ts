// `kumo origin serve`: a local stand-in for a site that serves one saved page at the product's path, so Kumo can
// be tried without the internet (KUMO_CONNECT_TO maps the real hostname to it).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export interface OriginOptions {
  /** The page's real URL: only its path (and query) is served. */
  url: URL;
  file: string;
  port: number;
  /** Default from the file's extension; without a charset, so Kumo reads the page's own declaration. */
  contentType?: string;
}

export interface RunningOrigin {
  url: string;
  close(): Promise<void>;
}

const byExtension: Record<string, string> = { '.json': 'application/json', '.html': 'text/html', '.htm': 'text/html' };

/** Loopback only: the saved page is served to this machine, never to the network. */
export async function serveOrigin(options: OriginOptions): Promise<RunningOrigin> {
  const body = await readFile(options.file);
  const contentType = options.contentType ?? byExtension[path.extname(options.file).toLowerCase()] ?? 'text/html';
  const served = options.url.pathname + options.url.search;
  const server = createServer((req, res) => {
    // The path alone decides (the query too when the URL has one); anything else, robots.txt included, is a 404,
    // which Kumo reads as "no robots rules".
    const asked = req.url ?? '/';
    const match = options.url.search === '' ? asked.split('?')[0] === served : asked === served;
    if (req.method === 'GET' && match) res.writeHead(200, { 'content-type': contentType }).end(body);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
