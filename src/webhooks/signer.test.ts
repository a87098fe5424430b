// Our node:crypto signatures checked by the reference verifier (`standardwebhooks`): valid ones pass, tampering fails.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signDelivery } from './signer.js';

const body = JSON.stringify({ type: 'item.succeeded', timestamp: '2026-11-28T12:00:00+09:00', data: { x: '価格' } });
const nowS = () => Math.floor(Date.now() / 1000);

describe('signDelivery', () => {
  it('verifies with standardwebhooks, for the current secret and, during rotation, the previous one', () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signDelivery('evt_1', nowS(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('fails on one changed byte of the body, the id or the timestamp', () => {
    const secret = newSigningSecret();
    const ts = nowS();
    const headers = signDelivery('evt_1', ts, body, [secret]);
    const hook = new Webhook(secret);
    const changed = Buffer.from(body);
    changed[10] = changed[10]! ^ 0x01;
    expect(() => hook.verify(changed, { ...headers })).toThrow();
    expect(() => hook.verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    expect(() => hook.verify(body, { ...headers, 'webhook-timestamp': String(ts + 1) })).toThrow();
  });

  it('fails when the timestamp is older than 5 minutes', () => {
    const secret = newSigningSecret();
    const headers = signDelivery('evt_1', nowS() - 301, body, [secret]);
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow(/too old/i);
  });

  it('fails for a secret that no longer signs (a rotated-away secret after its grace)', () => {
    const rotatedAway = newSigningSecret();
    const current = newSigningSecret();
    const headers = signDelivery('evt_1', nowS(), body, [current]);
    expect(() => new Webhook(rotatedAway).verify(body, { ...headers })).toThrow();
  });
});
