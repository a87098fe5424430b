// Time for batch results, driven from the test: the store's own `expire(now)` run against the test's database with a
// `now` past `results_expire_at`, as the server's sweep would run it that much later. Retention is at least one hour
// (DESIGN §5, `retain_hours` 1–72), and no product setting shortens it for tests: the server keeps its real clock, and
// the test stands in for the passing of time by calling the same code the sweep calls.
export type ExpiryTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export async function expireResults(target: ExpiryTarget, now: number): Promise<number> {
  void target;
  void now;
  throw new Error('the batch store (b-store) is not merged into this branch yet');
}
