import type { CompiledQuery, QueryResult, RawBuilder } from "kysely";
import type { UserDb } from "./engine";

/** A read that may scan: on a reader thread when the handle has them (SQLite), else on its own connection. */
export const scanRows = async <R>(udb: UserDb, query: RawBuilder<R> | CompiledQuery): Promise<R[]> => {
  const compiled = "compile" in query ? query.compile(udb.db) : query;
  if (udb.scan) return (await udb.scan(compiled)) as R[];
  return (await udb.db.executeQuery(compiled)).rows as R[];
};

/** A short read: at once on the connection when it is free (SQLite), else through Kysely. */
export const readRows = async (udb: UserDb, query: CompiledQuery): Promise<Record<string, unknown>[]> =>
  udb.readNow?.(query) ?? ((await udb.db.executeQuery(query)).rows as Record<string, unknown>[]);

/** A statement of a write transaction: at once on SQLite's held connection (runNow), else through Kysely. */
export const runStatement = <R>(udb: UserDb, query: CompiledQuery): QueryResult<R> | Promise<QueryResult<R>> =>
  udb.runNow ? (udb.runNow(query) as QueryResult<R>) : udb.db.executeQuery<R>(query);
