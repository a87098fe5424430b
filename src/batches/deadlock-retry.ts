// Runs a transaction again when PostgreSQL broke a deadlock by aborting it (or a serialization failure did): the whole
// transaction was rolled back, so running it again is safe, and the caller should not see a 500 for the database's
// choice of victim. An append and a claim, for one, lock a batch row and a lane in opposite orders.

/** SQLSTATEs of a transaction PostgreSQL rolled back so that another could go on. */
const transientCodes = new Set(['40P01', '40001']);

const attempts = 4;

export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && transientCodes.has(code);
}

/** `transaction()` up to 4 times while PostgreSQL rolls it back as a deadlock victim; other errors at once. */
export async function retryingConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
    }
  }
}
