// Runs the signature verification recipes of docs/batches.md (Node with `standardwebhooks`, Python with the standard
// library) against Standard Webhooks signatures computed here with node:crypto: a genuine delivery passes, and one
// changed byte, an old or future timestamp, a secret rotated away, a forged header and missing headers all fail.
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { repoRoot } from './support/kumo-process.js';

const doc = readFileSync(path.join(repoRoot, 'docs/batches.md'), 'utf8');

/** The fenced block of `lang` that contains `marker`. */
function block(lang: string, marker: string): string {
  const found = [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))]
    .map((m) => m[1]!)
    .find((code) => code.includes(marker));
  if (!found) throw new Error(`docs/batches.md has no ${lang} block with ${marker}`);
  return found;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Standard Webhooks v1, written out here (not Kumo's signer): base64(HMAC-SHA256(key, `id.timestamp.body`)). */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

interface Case {
  name: string;
  secret: string;
  headers: Record<string, string>;
  body: string;
  valid: boolean;
}

function cases(): Case[] {
  const secret = newSecret();
  const previous = newSecret();
  const other = newSecret();
  const id = 'evt_01JDQ3Z5K8M2N4P6R8T0V2X4Z6';
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    type: 'item.succeeded',
    timestamp: '2026-11-28T03:12:45.120+09:00',
    data: { batch_id: 'bat_1', item_id: 'itm_1', sequence: 1, result: { data: { title: 'ヨドバシ ¥1,980' } } },
  });
  const headers = (sig: string, ts = now, msgId = id) => ({
    'webhook-id': msgId,
    'webhook-timestamp': String(ts),
    'webhook-signature': sig,
  });
  const flipped = body.replace('1,980', '1,981');
  return [
    { name: 'a genuine delivery', secret, headers: headers(sign(secret, id, now, body)), body, valid: true },
    {
      name: 'during a rotation (new and previous secret both sign), verified with either',
      secret: previous,
      headers: headers(`${sign(secret, id, now, body)} ${sign(previous, id, now, body)}`),
      body,
      valid: true,
    },
    {
      name: 'the new secret only, after the rotation grace',
      secret: previous,
      headers: headers(sign(secret, id, now, body)),
      body,
      valid: false,
    },
    {
      name: 'one changed byte of the body',
      secret,
      headers: headers(sign(secret, id, now, body)),
      body: flipped,
      valid: false,
    },
    {
      name: 'another webhook-id',
      secret,
      headers: headers(sign(secret, id, now, body), now, 'evt_other'),
      body,
      valid: false,
    },
    {
      name: 'a timestamp 6 minutes old',
      secret,
      headers: headers(sign(secret, id, now - 360, body), now - 360),
      body,
      valid: false,
    },
    {
      name: 'a timestamp 6 minutes ahead',
      secret,
      headers: headers(sign(secret, id, now + 360, body), now + 360),
      body,
      valid: false,
    },
    {
      name: 'a signature with another secret',
      secret,
      headers: headers(sign(other, id, now, body)),
      body,
      valid: false,
    },
    { name: 'a forged non-ASCII signature', secret, headers: headers('v1,ｓｉｇ==é'), body, valid: false },
    {
      name: 'a v2 entry only',
      secret,
      headers: headers(sign(secret, id, now, body).replace('v1,', 'v2,')),
      body,
      valid: false,
    },
    {
      name: 'no signature header',
      secret,
      headers: { 'webhook-id': id, 'webhook-timestamp': String(now) },
      body,
      valid: false,
    },
  ];
}

describe('docs/batches.md: verifying a delivery', () => {
  it('the computed signatures are what the reference verifier (standardwebhooks) accepts', () => {
    for (const c of cases()) {
      let ok = true;
      try {
        new Webhook(c.secret).verify(c.body, c.headers);
      } catch {
        ok = false;
      }
      expect([c.name, ok]).toEqual([c.name, c.valid]);
    }
  });

  it('the Node recipe accepts exactly the genuine deliveries', () => {
    const code = block('js', 'function verifyKumoWebhook')
      .replace(/^import .*$/gm, '')
      .replace(/^export /gm, '');
    type Verify = (secret: string, headers: Record<string, string>, body: string) => unknown;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the doc's own snippet, run as written
    const load = new Function('Webhook', `${code}\nreturn verifyKumoWebhook;`) as (webhook: typeof Webhook) => Verify;
    const verify = load(Webhook);
    for (const c of cases()) {
      let event: unknown = null;
      try {
        event = verify(c.secret, c.headers, c.body);
      } catch {
        event = null;
      }
      expect([c.name, event !== null]).toEqual([c.name, c.valid]);
      if (c.valid) expect(event).toMatchObject({ type: 'item.succeeded', data: { batch_id: 'bat_1' } });
    }
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)(
    'the Python recipe accepts exactly the genuine deliveries (python3, standard library only)',
    () => {
      const all = cases();
      const driver = `
import json, sys
cases = json.loads(sys.stdin.read())
out = []
for c in cases:
    try:
        event = verify_kumo_webhook(c["secret"], c["headers"], c["body"].encode("utf-8"))
        out.append(event["data"]["batch_id"])
    except InvalidWebhook:
        out.append(None)
print(json.dumps(out))
`;
      const script = `${block('python', 'def verify_kumo_webhook')}\n${driver}`;
      const run = spawnSync('python3', ['-I', '-c', script], { input: JSON.stringify(all), encoding: 'utf8' });
      expect(run.stderr).toBe('');
      const outcomes = JSON.parse(run.stdout) as (string | null)[];
      expect(all.map((c, i) => [c.name, outcomes[i] !== null])).toEqual(all.map((c) => [c.name, c.valid]));
      expect(outcomes[0]).toBe('bat_1');
    },
  );
});
