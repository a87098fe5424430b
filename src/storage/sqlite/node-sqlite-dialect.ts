// Kysely's SqliteDialect with two changes for a shared file: IMMEDIATE transactions, and transactional migrations.
import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver, type DatabaseConnection } from 'kysely';
import type { DialectAdapter, Driver, SqliteDialectConfig } from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  /**
   * Every transaction here writes. A DEFERRED transaction that reads and then writes fails with SQLITE_BUSY when
   * another process wrote in between; BEGIN IMMEDIATE takes the write lock up front (waiting up to busy_timeout),
   * which serializes the ledger against the `kumo` CLI as Kysely's mutex already does within this process.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  // SQLite DDL is transactional; saying so makes Kysely's Migrator apply each migration all-or-nothing.
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class NodeSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
