import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { TableDef } from "../schema/types";
import { createTableSql } from "./column-sql";
import { writeColumn } from "./column-values";
import { engineIndexes } from "../schema/indexes";
import { createIndexSql } from "./sync-indexes";

/** User names cannot start with "_", so the scratch table never collides with one. */
const SCRATCH = "_tabula_rebuild";

export type RebuildPlan = {
  /** Current name of the table. */
  from: string;
  /** The table as it must be afterwards (same name), with the indexes it must have. */
  next: TableDef;
  /** Where a column of `next` gets its values when not from the old column of the same name. */
  sources?: Record<string, RawBuilder<unknown>>;
  /** Values written row by row into one column after the copy. */
  writes?: { column: string; values: [number, unknown][] };
};

/**
 * SQLite cannot alter a column, so the table is rebuilt the documented way: create the new shape, copy the
 * rows (ids and timestamps kept), drop the old table, rename, recreate the indexes, then check foreign keys — all in one
 * transaction. Foreign keys are off meanwhile (the pragma only changes outside a transaction); holding the
 * connection keeps other queries of this process out until they are back on.
 */
export const rebuildSqliteTable = async (udb: UserDb, plan: RebuildPlan) => {
  const { from, next, sources = {}, writes } = plan;
  await udb.db.connection().execute(async (conn) => {
    await sql`PRAGMA foreign_keys = OFF`.execute(conn);
    try {
      await conn.transaction().execute(async (trx) => {
        await createTableSql(udb, { ...next, name: SCRATCH }).execute(trx);
        const names = ["id", ...next.columns.map((c) => c.name), "created_at", "updated_at"];
        const values = names.map((n) => sources[n] ?? sql.id(n));
        await sql`INSERT INTO ${sql.id(SCRATCH)} (${sql.join(names.map((n) => sql.id(n)))})
          SELECT ${sql.join(values)} FROM ${udb.table(from)}`.execute(trx);
        if (writes) await writeColumn(trx, udb, SCRATCH, writes.column, writes.values);
        // AUTOINCREMENT must not hand out ids of deleted rows again: carry the counter over.
        const { rows: seq } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = ${from}`.execute(trx);
        await sql`DROP TABLE ${udb.table(from)}`.execute(trx);
        await sql`ALTER TABLE ${sql.id(SCRATCH)} RENAME TO ${sql.id(next.name)}`.execute(trx);
        // Dropping the old table took its indexes with it.
        for (const index of engineIndexes(next)) await createIndexSql(udb, next.name, index).execute(trx);
        if (seq.length) {
          await sql`DELETE FROM sqlite_sequence WHERE name = ${next.name}`.execute(trx);
          await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${next.name}, ${seq[0].seq})`.execute(trx);
        }
        const { rows: broken } = await sql`PRAGMA foreign_key_check`.execute(trx);
        if (broken.length) throw new Error(`rebuilding table ${next.name} would break ${broken.length} foreign keys`);
      });
    } finally {
      await sql`PRAGMA foreign_keys = ON`.execute(conn);
    }
  });
};
