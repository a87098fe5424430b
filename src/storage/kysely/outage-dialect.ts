// Wraps a Kysely dialect so that every driver call turns a database outage into KumoError('unavailable'): the one
// boundary where storage errors are classified, for SQLite and PostgreSQL alike.
import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { classifyBackendError, guardBackend } from '../../backends/backend-errors.js';

const guard = <T>(operation: () => Promise<T>) => guardBackend('storage', operation);

/** The connection Kysely sees; the inner driver gets its own connection back (pg keys private state on it). */
class GuardedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return guard(() => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw classifyBackendError('storage', error);
    }
  }
}

const innerOf = (connection: DatabaseConnection) =>
  connection instanceof GuardedConnection ? connection.inner : connection;

class GuardedDriver implements Driver {
  constructor(readonly inner: Driver) {}

  init(): Promise<void> {
    return guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GuardedConnection(await guard(() => this.inner.acquireConnection()));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return guard(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.rollbackTransaction(innerOf(connection)));
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await guard(async () => this.inner.savepoint?.(innerOf(connection), name, compileQuery));
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await guard(async () => this.inner.rollbackToSavepoint?.(innerOf(connection), name, compileQuery));
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await guard(async () => this.inner.releaseSavepoint?.(innerOf(connection), name, compileQuery));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.releaseConnection(innerOf(connection)));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** `dialect` with its driver's outages classified; compiler, adapter and introspector are the dialect's own. */
export function outageClassifyingDialect(dialect: Dialect): Dialect {
  return {
    createDriver: () => new GuardedDriver(dialect.createDriver()),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    createIntrospector: (db: Kysely<any>): DatabaseIntrospector => dialect.createIntrospector(db),
  };
}
