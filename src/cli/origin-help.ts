// `kumo origin`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';

export const originHelp: CommandHelp = {
  name: 'origin',
  summary: 'serve a saved page at its URL’s path on 127.0.0.1, for KUMO_CONNECT_TO (no internet needed)',
  usage: [
    `kumo origin serve --url URL --file page.html [--port 9000] [--content-type TYPE]
     (until Ctrl-C; prints the origin and the KUMO_CONNECT_TO mapping as JSON)`,
  ],
  options: [
    ['--url URL', 'the page’s real URL: its path is where the page is served'],
    ['--file FILE', 'the saved page'],
    ['--port N', 'the port on 127.0.0.1 (default 9000; 0 picks a free one)'],
    ['--content-type TYPE', 'the Content-Type header, such as "text/html; charset=Shift_JIS"'],
  ],
  examples: [
    'kumo origin serve --url https://www.ikebe-gakki.com/c/c-/gt/gt13/gt131234/123456 --file page.html --port 9000',
  ],
};
