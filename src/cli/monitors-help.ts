// `kumo monitors`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';
import { watchableFields } from '../monitors/model.js';

export const monitorsHelp: CommandHelp = {
  name: 'monitors',
  summary: 'create, list and run price monitors (a client of the HTTP API; next runs in JST)',
  usage: [
    `kumo monitors create --url URL [--url URL …] [--ref REF …] (--every MINUTES | --cron "EXPR")
     [--timezone Asia/Tokyo] [--business-days] [--name NAME] [--watch price,availability,…]
     [--rule ID:FIELD:OPERATOR:VALUE[:enter] …] [--history-days N] [--max-credits N]
     [--webhook whe_…] [--language ja|en] [--json]
     (a --ref per --url, in order; rules such as drop5:price:change_pct_lte:-5,
     cheap:price:lte:9800:enter, back:availability:to:in_stock,limited)`,
    `kumo monitors create --file monitor.json [--json]
     (the file: a whole POST /v1/monitors body; the same body twice makes one monitor)`,
    'kumo monitors list [--json]',
    'kumo monitors show MONITOR_ID [--json]',
    `kumo monitors pause MONITOR_ID [--json]
     (no check runs until resumed; a paused monitor costs nothing)`,
    'kumo monitors resume MONITOR_ID [--json]',
    `kumo monitors delete MONITOR_ID [--json]
     (the monitor and everything kept for it: checks, alerts, history)`,
    `kumo monitors run MONITOR_ID [--wait [--timeout SECONDS]] [--json]
     (talk to KUMO_BASE_URL with KUMO_API_KEY; next runs are shown in JST)`,
  ],
  options: [
    ['--url URL', 'create: a page to watch (repeat for more)'],
    ['--ref REF', 'create: your reference for the --url at the same position'],
    ['--every MINUTES', 'create: run every so many minutes (or --cron)'],
    ['--cron "EXPR"', 'create: run on a cron schedule (or --every)'],
    ['--timezone TZ', 'create: the schedule’s time zone (default Asia/Tokyo)'],
    ['--business-days', 'create: skip weekends and Japanese holidays'],
    ['--name NAME', 'create: the monitor’s name'],
    ['--watch FIELDS', `create: the fields compared between checks (${watchableFields.join(', ')})`],
    ['--rule RULE', 'create: ID:FIELD:OPERATOR:VALUE[:enter], an alert condition (repeatable)'],
    ['--history-days N', 'create: days the checks are kept (1–365)'],
    ['--max-credits N', 'create: the most the monitor may spend in a month'],
    ['--webhook whe_…', 'create: the webhook endpoint alerted'],
    ['--language ja|en', 'create: the language of the alerts'],
    ['--file FILE', 'create: a whole POST /v1/monitors body instead of the flags above'],
    ['--wait', 'run: wait for this run’s checks, then print each with its cost and changes'],
    ['--timeout SECONDS', 'run --wait: wait at most this long (default 120)'],
    ['--json', 'print what the API answered (snake_case) instead of lines'],
  ],
  examples: [
    'kumo monitors create --url https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592 --every 60 --rule drop5:price:change_pct_lte:-5',
    'kumo monitors run mon_… --wait',
    'kumo monitors pause mon_…',
  ],
};
