import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { TableDef } from "../schema/types";
import { addForeignKeysSql, createTableSql } from "./column-sql";

/** Creates tables, then (MySQL) their foreign keys, so tables may reference each other in any order. */
export const applyTables = async (udb: UserDb, tables: TableDef[]) => {
  for (const table of tables) await createTableSql(udb, table).execute(udb.db);
  for (const table of tables) await addForeignKeysSql(udb, table)?.execute(udb.db);
};

export const dropTableSql = (udb: UserDb, name: string) => sql`DROP TABLE ${udb.table(name)}`;
