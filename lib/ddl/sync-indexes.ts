import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { type EngineIndex, engineIndexes, isManagedIndex } from "../schema/indexes";
import type { TableDef } from "../schema/types";

type Executor = UserDb["db"];

export const createIndexSql = (udb: UserDb, table: string, index: EngineIndex): RawBuilder<unknown> => {
  const columns = sql.join(index.columns.map((c) => sql.id(c)));
  const kind = sql.raw(index.unique ? "UNIQUE INDEX" : "INDEX");
  return udb.engine === "mysql"
    ? sql`CREATE ${kind} ${sql.id(index.name)} ON ${udb.table(table)} (${columns})`
    : sql`CREATE ${kind} ${sql.id(index.name)} ON ${sql.id(table)} (${columns})`;
};

const dropIndexSql = (udb: UserDb, table: string, name: string) =>
  udb.engine === "mysql" ? sql`DROP INDEX ${sql.id(name)} ON ${udb.table(table)}` : sql`DROP INDEX ${sql.id(name)}`;

/** The indexes on the table that this module manages, by name, with their columns as the engine lists them. */
export const managedIndexes = async (udb: UserDb, physical: string, table: string, db: Executor = udb.db) => {
  const { rows } =
    udb.engine === "mysql"
      ? await sql<{ name: string; col: string }>`SELECT INDEX_NAME AS ${sql.id("name")}, COLUMN_NAME AS ${sql.id("col")}
          FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table}
          ORDER BY INDEX_NAME, SEQ_IN_INDEX`.execute(db)
      : await sql<{ name: string; col: string }>`SELECT m.name AS name, i.name AS col
          FROM sqlite_master AS m, pragma_index_info(m.name) AS i
          WHERE m.type = 'index' AND m.tbl_name = ${table} ORDER BY m.name, i.seqno`.execute(db);
  const indexes = new Map<string, string[]>();
  for (const { name, col } of rows) if (isManagedIndex(name)) indexes.set(name, [...(indexes.get(name) ?? []), col]);
  return indexes;
};

/**
 * Makes the engine's indexes on `table` those its definition asks for. An index whose columns changed under
 * its name (MariaDB drops a dropped column out of its indexes) is rebuilt; missing ones are created before
 * unwanted ones are dropped, so a foreign key always has an index to move to. A failed create drops what this
 * call created.
 */
export const syncIndexes = async (udb: UserDb, physical: string, table: TableDef, db: Executor = udb.db) => {
  const wanted = engineIndexes(table);
  const existing = await managedIndexes(udb, physical, table.name, db);
  for (const index of wanted) {
    const columns = existing.get(index.name);
    if (columns && columns.join() !== index.columns.join()) {
      await dropIndexSql(udb, table.name, index.name).execute(db);
      existing.delete(index.name);
    }
  }
  const created: string[] = [];
  try {
    for (const index of wanted.filter((i) => !existing.has(i.name))) {
      await createIndexSql(udb, table.name, index).execute(db);
      created.push(index.name);
    }
  } catch (err) {
    for (const name of created) await dropIndexSql(udb, table.name, name).execute(db).catch(() => undefined);
    throw err;
  }
  const keep = new Set(wanted.map((i) => i.name));
  for (const name of existing.keys()) if (!keep.has(name)) await dropIndexSql(udb, table.name, name).execute(db);
};
