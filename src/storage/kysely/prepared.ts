// Hot queries built and compiled once: only their parameters are bound per call. Kysely builds an operation tree and
// compiles it to SQL on every execution, which on the embedded database cost more of the event loop than SQLite
// running the query (issue 12's profile); the per-call queries of a scrape (auth, reserve, settle) go through here.
import { createQueryId, type CompiledQuery, type Compilable, type QueryResult } from 'kysely';

/** Anything that runs a compiled query: a Kysely instance or one of its transactions. */
interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

const slotPrefix = '\u0000kumo-slot-';
const slotSuffix = '\u0000';

/** The argument index a compiled parameter stands for, or null for a constant of the query itself. */
function slotIndex(parameter: unknown): number | null {
  if (typeof parameter !== 'string' || !parameter.startsWith(slotPrefix) || !parameter.endsWith(slotSuffix))
    return null;
  const index = Number(parameter.slice(slotPrefix.length, -slotSuffix.length));
  return Number.isSafeInteger(index) ? index : null;
}

/**
 * The placeholder for the `index`-th argument of a prepared query, given to the builder where the value goes. It is
 * a string no caller can send (it starts and ends with NUL), and only ever a bound parameter: Kysely never writes a
 * value into the SQL text.
 */
export function slot<T = never>(index: number): T {
  return `${slotPrefix}${index}${slotSuffix}` as T;
}

type Binding = { arg: number } | { value: unknown };

export class PreparedQuery<Row, Args extends readonly unknown[]> {
  readonly #sql: string;
  readonly #query: CompiledQuery['query'];
  readonly #bindings: readonly Binding[];

  /** `build` gets the slots `slot(0)`, `slot(1)` … standing for the arguments; every argument must be used. */
  constructor(arity: Args['length'], build: (...slots: never[]) => Compilable<Row>) {
    const compiled = build(...Array.from({ length: arity }, (_, i) => slot(i))).compile();
    const used = new Set<number>();
    this.#bindings = compiled.parameters.map((parameter) => {
      const index = slotIndex(parameter);
      if (index === null) return { value: parameter };
      used.add(index);
      return { arg: index };
    });
    // A slot that vanished (Kysely dropped a value, or the builder ignored an argument) would bind nothing: refuse
    // at construction, where a test sees it, not at run time.
    if (used.size !== arity) throw new Error(`a prepared query binds ${used.size} of its ${arity} arguments`);
    this.#sql = compiled.sql;
    this.#query = compiled.query;
  }

  get sql(): string {
    return this.#sql;
  }

  execute(runner: QueryRunner, ...args: Args): Promise<QueryResult<Row>> {
    const parameters = this.#bindings.map((binding) => ('arg' in binding ? args[binding.arg] : binding.value));
    return runner.executeQuery<Row>({ sql: this.#sql, parameters, query: this.#query, queryId: createQueryId() });
  }

  /** The first row, or undefined. */
  async first(runner: QueryRunner, ...args: Args): Promise<Row | undefined> {
    return (await this.execute(runner, ...args)).rows[0];
  }

  /** Rows changed (UPDATE, DELETE, INSERT … ON CONFLICT DO NOTHING), as a number. */
  async changed(runner: QueryRunner, ...args: Args): Promise<number> {
    return Number((await this.execute(runner, ...args)).numAffectedRows ?? 0n);
  }
}

/** Prepared queries by dialect: the compiled SQL depends on the dialect's compiler only, so one per adapter. */
const byDialect = new WeakMap<object, Map<string, PreparedQuery<unknown, readonly unknown[]>>>();

/**
 * The query prepared under `key` for the dialect `db` (a Kysely instance, a transaction or a connection) speaks,
 * built the first time it is asked for. For hot queries whose shape varies a little (how many columns an UPDATE
 * moves, how many rows an INSERT writes): the key names the shape, and the same key must always build the same query.
 */
export function preparedFor<Row, Args extends readonly unknown[]>(
  db: { getExecutor(): { adapter: object } },
  key: string,
  arity: Args['length'],
  build: (...slots: never[]) => Compilable<Row>,
): PreparedQuery<Row, Args> {
  const adapter = db.getExecutor().adapter;
  let queries = byDialect.get(adapter);
  if (!queries) {
    queries = new Map();
    byDialect.set(adapter, queries);
  }
  let query = queries.get(key);
  if (!query) {
    query = new PreparedQuery<Row, Args>(arity, build);
    queries.set(key, query);
  }
  return query as PreparedQuery<Row, Args>;
}
