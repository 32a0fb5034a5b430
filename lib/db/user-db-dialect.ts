// Kysely over a user database whose connection may be closed between uses (sqlite-handles.ts): every
// statement or transaction retains the database for exactly as long as it holds the connection.
import { CompiledQuery, type DatabaseConnection, type Driver, Kysely, type QueryResult, SqliteDialect } from "kysely";
import type { OpenDb, SqliteHandles } from "./sqlite-handles";

/** One statement on `db`'s connection, at once, as Kysely's SqliteConnection runs it (on the cached statements). */
export const runOn = <R>(db: OpenDb, { sql, parameters }: CompiledQuery): QueryResult<R> => {
  const stmt = db.conn.prepare(sql);
  if (stmt.reader) return { rows: stmt.all(parameters as unknown[]) as R[] };
  const { changes, lastInsertRowid } = stmt.run(parameters as unknown[]);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
};

class LeasedConnection implements DatabaseConnection {
  constructor(readonly db: OpenDb) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return runOn<R>(this.db, query);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error("Streaming reads are not used on user databases.");
  }
}

class LeasedDriver implements Driver {
  constructor(
    private readonly handles: SqliteHandles,
    private readonly physical: string,
  ) {}

  async init() {}

  async acquireConnection() {
    const db = this.handles.retain(this.physical);
    await db.lock.acquire();
    return new LeasedConnection(db);
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin"));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(connection: DatabaseConnection) {
    const { db } = connection as LeasedConnection;
    db.lock.release();
    this.handles.release(db);
  }

  async destroy() {}
}

/** The connection of a database whose lock a write transaction already holds (group-commit.ts): no lock, no nesting. */
class HeldDriver implements Driver {
  private readonly connection: LeasedConnection;

  constructor(db: OpenDb) {
    this.connection = new LeasedConnection(db);
  }

  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error("A write transaction's statements cannot open another transaction.");
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

/** SQLite's compiler, adapter and introspector; only the driver differs. */
class SqliteWith extends SqliteDialect {
  constructor(private readonly driver: () => Driver) {
    super({ database: undefined as never });
  }

  override createDriver(): Driver {
    return this.driver();
  }
}

export const leasedKysely = (handles: SqliteHandles, physical: string) => new Kysely<any>({ dialect: new SqliteWith(() => new LeasedDriver(handles, physical)) });

const held = new WeakMap<OpenDb, Kysely<any>>();

/** Kysely on `db`'s connection for statements inside a transaction that holds its lock; one per open database. */
export const heldKysely = (db: OpenDb) => {
  let kysely = held.get(db);
  if (!kysely) held.set(db, (kysely = new Kysely<any>({ dialect: new SqliteWith(() => new HeldDriver(db)) })));
  return kysely;
};
