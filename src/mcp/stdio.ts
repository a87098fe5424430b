// `kumo mcp`: the same tools over stdio for desktop clients, calling a Kumo server over HTTP; stdout carries only
// the protocol, diagnostics go to stderr.
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { remoteKumoApi } from './kumo-api.js';
import { createKumoMcpServer } from './tools.js';

export interface StdioOptions {
  baseUrl: string;
  apiKey: string;
  /** Where diagnostics go (stderr): never stdout, which belongs to the protocol. */
  diagnostics: (line: string) => void;
}

/** Serves until the client closes stdin (the transport then closes and the process has nothing left to wait for). */
export function serveKumoOverStdio(options: StdioOptions): StdioServerHandle {
  const api = remoteKumoApi({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  options.diagnostics(`kumo mcp: serving Kumo's tools over stdio, calling ${new URL(options.baseUrl).origin}`);
  return serveStdio(() => createKumoMcpServer(api), {
    // Error objects can carry request details; their name and message are enough to diagnose a broken pipe.
    onerror: (error) => options.diagnostics(`kumo mcp: ${error.name}: ${error.message}`),
  });
}
