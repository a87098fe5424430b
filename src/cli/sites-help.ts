// `kumo sites`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';

/** The command's line in `kumo sites --help` (and of its usage errors). */
export const sitesNewUsage = `kumo sites new ID --host HOST --kind commerce|public --page-type item|search [--name NAME]
     (a new site's folder from the templates, then the index, the record and docs/sites.md)`;

export const sitesHelp: CommandHelp = {
  name: 'sites',
  summary: 'verify every fixture, regenerate docs/sites.md and the site index, record a page, scaffold a new site',
  usage: [
    `kumo sites verify [--json] [--record [--site ID]]
     (every fixture, live; exit status 1 when one fails)`,
    sitesNewUsage,
    'kumo sites doc [--write]',
    `kumo sites index [--write]
     (src/sites/catalogue.generated.ts from the site folders: run it after adding a folder)`,
    'kumo sites record URL [--site ID] [--name NAME] [--out DIR]',
  ],
  options: [
    ['--json', 'verify: the coverage table and every fixture’s result as JSON'],
    ['--record', 'verify: rewrite the committed verification record (needs the shared corpus)'],
    [
      '--site ID',
      'verify --record: rewrite only this site’s entries (no corpus needed unless it has real pages there); record: the site, where the URL’s host is not enough',
    ],
    ['--host HOST', 'new: the host the site’s URLs use (exactly: zozo.jp, www.example.co.jp)'],
    ['--kind KIND', 'new: commerce or public'],
    ['--page-type TYPE', 'new: the first page type, from a template (item, search)'],
    ['--name NAME', 'new: the site’s name (default the host); record: the fixture’s file name (without extension)'],
    ['--write', 'doc, index: write docs/sites.md (or the catalogue index) instead of printing it'],
    ['--out DIR', 'record: the folder (default the site’s own fixtures)'],
  ],
  examples: [
    'kumo sites verify',
    'kumo sites new zozotown --host zozo.jp --kind commerce --page-type item --name ZOZOTOWN',
    'kumo sites record https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592 --name usb-cable',
  ],
};
