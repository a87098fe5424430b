// `kumo browser-server`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';

export const browserServerHelp: CommandHelp = {
  name: 'browser-server',
  summary: 'the remote browser for KUMO_BROWSER_WS: Chromium with Kumo’s hardening',
  usage: [
    `kumo browser-server [--host 127.0.0.1] [--port 0]
     (prints ws_endpoint, at the path of KUMO_BROWSER_WS when that is set here too; until Ctrl-C)`,
  ],
  options: [
    ['--host HOST', 'the address to listen on (default 127.0.0.1)'],
    ['--port N', 'the port (default 0: a free one)'],
  ],
  examples: ['kumo browser-server --host 0.0.0.0 --port 3000'],
};
