// `kumo mcp`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';

export const mcpHelp: CommandHelp = {
  name: 'mcp',
  summary: 'Kumo’s tools over MCP on stdin/stdout, for desktop agents (docs/mcp.md)',
  usage: [
    `kumo mcp
     (a client of the server at KUMO_BASE_URL, with KUMO_API_KEY)`,
  ],
  options: [],
  examples: ['KUMO_BASE_URL=http://127.0.0.1:8080 KUMO_API_KEY=$KUMO_KEY kumo mcp'],
};
