// Bounds a browser or network step in a test: an answer that never comes fails with a message instead of hanging the run.

/** `answer`, or a rejection naming `what` once `ms` have passed without it settling. */
export async function bounded<T>(what: string, ms: number, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
