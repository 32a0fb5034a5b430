import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { TableDef } from "../schema/types";
import { engineIndexes } from "../schema/indexes";
import { addForeignKeysSql, createTableSql } from "./column-sql";
import { createIndexSql } from "./sync-indexes";
import { syncSearch } from "./sync-search";

/**
 * Creates tables with their indexes and search indexes, then (MySQL) their foreign keys, so tables may reference each other in any
 * order and a foreign key finds its column's index already there instead of adding a second one.
 */
export const applyTables = async (udb: UserDb, tables: TableDef[]) => {
  for (const table of tables) {
    await createTableSql(udb, table).execute(udb.db);
    for (const index of engineIndexes(table)) await createIndexSql(udb, table.name, index).execute(udb.db);
    if (table.columns.some((c) => c.searchable)) await syncSearch(udb, table.id, table);
  }
  for (const table of tables) await addForeignKeysSql(udb, table)?.execute(udb.db);
};

/** IF EXISTS: a second run of a drop whose metadata commit lost a race finds the table gone. */
export const dropTableSql = (udb: UserDb, name: string) => sql`DROP TABLE IF EXISTS ${udb.table(name)}`;
