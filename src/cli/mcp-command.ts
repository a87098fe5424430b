// `kumo mcp`: Kumo's tools over MCP on stdin/stdout, a client of the server at KUMO_BASE_URL.
import { loadConfigFromProcess } from '../config.js';
import { serveKumoOverStdio } from '../mcp/stdio.js';
import { UsageError } from './args.js';

/** `kumo mcp`: an API client like `kumo batch`, speaking MCP on stdin/stdout (docs/mcp.md). */
export function mcp(args: string[]): void {
  if (args.length > 0) throw new UsageError('kumo mcp takes no arguments: set KUMO_BASE_URL and KUMO_API_KEY');
  const { client } = loadConfigFromProcess();
  if (client.apiKey === '') throw new UsageError('kumo mcp needs KUMO_API_KEY (an API key) and KUMO_BASE_URL');
  serveKumoOverStdio({
    baseUrl: client.baseUrl,
    apiKey: client.apiKey,
    diagnostics: (line) => process.stderr.write(`${line}\n`),
  });
}
