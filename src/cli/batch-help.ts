// `kumo batch`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';
import { itemStates } from '../batches/batch-store.js';

export const batchHelp: CommandHelp = {
  name: 'batch',
  summary: 'submit a list of URLs as one batch, wait for it, fetch its results (a client of the HTTP API)',
  usage: [
    `kumo batch submit FILE [--webhook whe_…] [--retain-hours N] [--max-credits N] [--wait [--out results.jsonl]]
     (FILE: one URL per line, or a CSV with a url column and an optional ref column)`,
    'kumo batch status BATCH_ID',
    `kumo batch items BATCH_ID [--state STATE] [--out results.jsonl]
     (hands ready results over: they are charged)`,
    `kumo batch cancel BATCH_ID
     (talk to KUMO_BASE_URL with KUMO_API_KEY)`,
  ],
  options: [
    ['--webhook whe_…', 'submit: a webhook endpoint told of the batch’s events'],
    ['--retain-hours N', 'submit: hours the results are kept after the batch ends (1–72)'],
    ['--max-credits N', 'submit: the most the batch may spend'],
    ['--wait', 'submit: wait (progress on stderr), then write every item as JSON Lines'],
    ['--out FILE', 'submit --wait, items: write the JSON Lines to FILE instead of stdout'],
    ['--state STATE', `items: only items in this state (${itemStates.join(', ')})`],
  ],
  examples: ['KUMO_API_KEY=kumo_live_… kumo batch submit urls.txt --wait --out results.jsonl'],
};
