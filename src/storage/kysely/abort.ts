// Rolling a Kysely transaction back with an answer for its caller: thrown inside, turned into the answer outside.

/** Thrown inside a transaction's body to roll it back; `answerOrAbort` returns its `answer`. Never leaves a store. */
export class Abort<T> extends Error {
  constructor(readonly answer: T) {
    super('transaction rolled back');
  }
}

/** Runs `run` (a transaction), answering what an `Abort` inside it carried when one rolled it back. */
export async function answerOrAbort<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Abort) return error.answer as T;
    throw error;
  }
}
