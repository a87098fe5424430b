// Which store a claimed piece of work records into: batch items (`itm_…`) and monitor checks (`chk_…`) share the work
// queue, the dispatcher and its politeness, and each kind keeps its own rows; routed by the id's prefix.
import type { BatchStore } from './batch-store.js';
import type { Tx } from './work-queue.js';

/** The run steps the dispatcher drives (and the liveness sweep's requeue). */
export type RunSteps = Pick<BatchStore, 'markRunning' | 'reserve' | 'finishRun' | 'retryLater' | 'requeue'>;

function prefixOf(id: string): string {
  const cut = id.indexOf('_');
  return cut < 0 ? '' : id.slice(0, cut);
}

/** One RunSteps over several: `byPrefix` for the kinds it names (`chk`), `otherwise` for the rest (batch items). */
export function routedRunSteps(byPrefix: Readonly<Record<string, RunSteps>>, otherwise: RunSteps): RunSteps {
  const of = (id: string) => byPrefix[prefixOf(id)] ?? otherwise;
  return {
    markRunning: (tx, id, holder, requestId, now) => of(id).markRunning(tx, id, holder, requestId, now),
    reserve: (id, holder, request) => of(id).reserve(id, holder, request),
    finishRun: (id, holder, outcome, finishWork) => of(id).finishRun(id, holder, outcome, finishWork),
    retryLater: (id, holder, giveBack) => of(id).retryLater(id, holder, giveBack),
    requeue: async (tx: Tx, ids) => {
      const groups = new Map<RunSteps, string[]>();
      for (const id of ids) {
        const store = of(id);
        groups.set(store, [...(groups.get(store) ?? []), id]);
      }
      for (const [store, group] of groups) await store.requeue(tx, group);
    },
  };
}
