// The outage classifier: which driver errors are a backend down (503, retry) and which are bugs or refusals (500).
import { describe, expect, it } from 'vitest';
import { classifyBackendError, guardBackend, isBackendOutage, unavailable } from './backend-errors.js';
import { KumoError, isKumoError } from '../errors.js';

const withFields = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('isBackendOutage', () => {
  it.each([
    ['socket refused', withFields('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['socket reset', withFields('read ECONNRESET', { code: 'ECONNRESET' })],
    ['broken pipe', withFields('write EPIPE', { code: 'EPIPE' })],
    ['name lookup', withFields('getaddrinfo EAI_AGAIN db', { code: 'EAI_AGAIN' })],
    ['every address refused', new AggregateError([withFields('x', { code: 'ECONNREFUSED' })], 'connect failed')],
    ['pg: terminated', new Error('Connection terminated unexpectedly')],
    ['pg: pool checkout timeout', new Error('timeout exceeded when trying to connect')],
    ['pg: admin shutdown', withFields('terminating connection due to administrator command', { code: '57P01' })],
    ['pg: cannot connect now', withFields('the database system is starting up', { code: '57P03' })],
    ['pg: connection exception', withFields('connection failure', { code: '08006' })],
    ['pg: too many connections', withFields('sorry, too many clients already', { code: '53300' })],
    ['pg: read-only standby', withFields('cannot execute INSERT in a read-only transaction', { code: '25006' })],
    ['pg: silent connection', new Error('Query read timeout')],
    ['pg: statement_timeout', withFields('canceling statement due to statement timeout', { code: '57014' })],
    [
      'pg: idle in transaction',
      withFields('terminating connection due to idle-in-transaction timeout', { code: '25P03' }),
    ],
    ['pg: lock_timeout', withFields('canceling statement due to lock timeout', { code: '55P03' })],
    ['sqlite: busy', withFields('database is locked', { code: 'ERR_SQLITE_ERROR', errcode: 5 })],
    ['sqlite: busy snapshot', withFields('database is locked', { code: 'ERR_SQLITE_ERROR', errcode: 517 })],
    ['sqlite: read-only', withFields('attempt to write a readonly database', { code: 'ERR_SQLITE_ERROR', errcode: 8 })],
    ['sqlite: I/O', withFields('disk I/O error', { code: 'ERR_SQLITE_ERROR', errcode: 10 })],
    ['sqlite: full', withFields('database or disk is full', { code: 'ERR_SQLITE_ERROR', errcode: 13 })],
    ['ioredis: closed', new Error('Connection is closed.')],
    ['ioredis: timeout', new Error('Command timed out')],
    [
      'ioredis: retries',
      withFields('Reached the max retries per request limit', { name: 'MaxRetriesPerRequestError' }),
    ],
    ['redis: loading', withFields('LOADING Redis is loading the dataset in memory', { name: 'ReplyError' })],
    ['redis: replica', withFields("READONLY You can't write against a read only replica.", { name: 'ReplyError' })],
  ])('%s is an outage', (_name, error) => {
    expect(isBackendOutage(error)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError('Cannot read properties of undefined')],
    ['pg: unique violation', withFields('duplicate key value violates unique constraint', { code: '23505' })],
    ['pg: check violation', withFields('new row violates check constraint', { code: '23514' })],
    ['pg: syntax', withFields('syntax error at or near', { code: '42601' })],
    ['sqlite: constraint', withFields('UNIQUE constraint failed', { code: 'ERR_SQLITE_ERROR', errcode: 2067 })],
    ['sqlite: trigger abort', withFields('credit_ledger is append-only', { code: 'ERR_SQLITE_ERROR', errcode: 1811 })],
    ['redis: script error', withFields('ERR Error running script', { name: 'ReplyError' })],
    ['already classified', new KumoError('fetch_failed', 'the fetch failed')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not an outage', (_name, error) => {
    expect(isBackendOutage(error)).toBe(false);
  });
});

describe('at a boundary', () => {
  it('an outage becomes unavailable with Retry-After and the backend, keeping the cause for the log only', async () => {
    const cause = withFields('connect ECONNREFUSED 10.1.2.3:6379', { code: 'ECONNREFUSED' });
    const error = await guardBackend('limits', () => Promise.reject(cause)).catch((e: unknown) => e);
    expect(isKumoError(error)).toBe(true);
    const kumo = error as KumoError;
    expect(kumo.code).toBe('unavailable');
    expect(kumo.extras).toEqual({ retryAfterSeconds: 5, body: { backend: 'limits' } });
    expect(kumo.message).not.toContain('10.1.2.3');
    expect(kumo.cause).toBe(cause);
  });

  it('anything else passes through unchanged', () => {
    const bug = new RangeError('cannot commit 3 credits against a reservation of 1');
    expect(classifyBackendError('storage', bug)).toBe(bug);
    expect(unavailable(null).extras).toEqual({ retryAfterSeconds: 5 });
  });
});
