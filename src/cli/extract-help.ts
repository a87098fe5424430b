// `kumo extract`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';

export const extractHelp: CommandHelp = {
  name: 'extract',
  summary: 'the JSON the API would put in `data` for a saved page (the reviewer’s tool)',
  usage: [
    `kumo extract --site ID --url URL [--file page.html] [--work-type TYPE] [--render-js]
     (reads the page from stdin without --file)`,
  ],
  options: [
    ['--site ID', 'the site (kumo sites verify lists them)'],
    ['--url URL', 'the URL the page was saved from: it picks the page type'],
    ['--file FILE', 'the saved page (default: stdin)'],
    ['--work-type TYPE', 'the page type, where the URL alone does not say (default auto)'],
    ['--render-js', 'a rendered page, read by the browser route’s extractor'],
  ],
  examples: [
    'kumo extract --site ikebe_gakki --url https://www.ikebe-gakki.com/c/c-/gt/gt13/gt131234/123456 --file page.html',
  ],
};
