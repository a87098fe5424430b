// retryingConflicts: a deadlock victim's transaction runs again; any other error, or a fourth conflict, reaches the caller.
import { describe, expect, it } from 'vitest';
import { isTransientConflict, retryingConflicts } from './deadlock-retry.js';

const pgError = (code: string) => Object.assign(new Error('deadlock detected'), { code });

describe('retryingConflicts', () => {
  it('runs a transaction PostgreSQL rolled back as a deadlock victim again, and returns its result', async () => {
    let runs = 0;
    const result = await retryingConflicts(async () => {
      runs++;
      if (runs < 3) throw pgError(runs === 1 ? '40P01' : '40001');
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(3);
  });

  it('gives up after four conflicts, and never retries another error', async () => {
    let runs = 0;
    await expect(
      retryingConflicts(async () => {
        runs++;
        throw pgError('40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(4);
    runs = 0;
    await expect(
      retryingConflicts(async () => {
        runs++;
        throw pgError('23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
    expect(isTransientConflict(new Error('x'))).toBe(false);
    expect(isTransientConflict(null)).toBe(false);
  });
});
