// A write's move of its database's file counter: the bytes of the files its rows name now less those the rows it
// replaced named, and the reservation of the upload it attaches, taken. On MariaDB the write's transaction runs on
// the metadata database's connection, so both land in it: the counter moves iff the rows commit. SQLite keeps each
// database in a file of its own: the move is made right after the COMMIT, in commit order.
import { sql } from "kysely";
import type { App } from "../../app-type";
import type { UserDb } from "../../db/engine";
import type { TableDef } from "../../schema/types";
import { filesOf } from "../../schema/file-value";
import { type FileScope, fileColumnsOf } from "./file-scope";

type Changed = { records: Record<string, unknown>[]; old: Record<string, unknown>[] };

const bytesIn = (table: TableDef, rows: Record<string, unknown>[]) => {
  let total = 0;
  for (const column of fileColumnsOf(table)) for (const row of rows) for (const f of filesOf(row[column.name])) total += f.size;
  return total;
};

/** The bytes a write's changes add to what the table's rows name (negative when files go). */
export const fileBytesDelta = (table: TableDef, changes: Changed[]) =>
  changes.reduce((sum, c) => sum + bytesIn(table, c.records) - bytesIn(table, c.old), 0);

const moveOnMysql = async (tx: UserDb, databaseId: number, delta: number, reservation: number | undefined) => {
  if (delta !== 0) {
    await sql`INSERT INTO file_usage (database_id, bytes) VALUES (${databaseId}, ${delta}) ON DUPLICATE KEY UPDATE bytes = bytes + VALUES(bytes)`.execute(tx.db);
  }
  if (reservation !== undefined) await sql`DELETE FROM file_reservations WHERE id = ${reservation}`.execute(tx.db);
};

const moveOnSqlite = (app: App, databaseId: number, delta: number, reservation: number | undefined) =>
  app.engine.meta.transaction().execute(async (trx) => {
    if (delta !== 0) {
      await trx
        .insertInto("file_usage")
        .values({ database_id: databaseId, bytes: delta })
        .onConflict((c) => c.column("database_id").doUpdateSet({ bytes: sql`bytes + excluded.bytes` }))
        .execute();
    }
    if (reservation !== undefined) await trx.deleteFrom("file_reservations").where("id", "=", reservation).execute();
  });

/**
 * Called last in the write's transaction: moves the counter in it (MariaDB) or once it commits (SQLite). Answers
 * what to await after the COMMIT.
 */
export const moveFileUsage = async (app: App, tx: UserDb, scope: FileScope, table: TableDef, changes: Changed[]): Promise<() => Promise<unknown>> => {
  const delta = fileBytesDelta(table, changes);
  if (delta === 0 && scope.reservation === undefined) return async () => undefined;
  if (tx.engine === "mysql") {
    await moveOnMysql(tx, scope.databaseId, delta, scope.reservation);
    return async () => undefined;
  }
  let moved: Promise<unknown> = Promise.resolve();
  tx.afterCommit?.(() => {
    moved = moveOnSqlite(app, scope.databaseId, delta, scope.reservation);
  });
  return () => moved;
};
