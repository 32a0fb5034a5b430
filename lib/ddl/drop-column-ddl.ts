import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { ColumnDef, TableDef } from "../schema/types";
import { alterMysqlTable, dropMysqlForeignKeys } from "./mysql-constraints";
import { rebuildSqliteTable } from "./rebuild-sqlite-table";

/** Drops a user column with its unique index and foreign key. */
export const dropColumnDdl = async (udb: UserDb, physical: string, table: TableDef, column: ColumnDef) => {
  if (udb.engine === "mysql") {
    if (column.references) await dropMysqlForeignKeys({ udb, physical, table: table.name, column: column.name });
    await alterMysqlTable(udb, table.name, [sql`DROP COLUMN ${sql.id(column.name)}`]);
    return;
  }
  // SQLite's DROP COLUMN refuses a column in a UNIQUE or FOREIGN KEY constraint: rebuild without it instead.
  if (column.unique || column.references) {
    const next = { ...table, columns: table.columns.filter((c) => c.name !== column.name) };
    await rebuildSqliteTable(udb, { from: table.name, next });
    return;
  }
  await sql`ALTER TABLE ${udb.table(table.name)} DROP COLUMN ${sql.id(column.name)}`.execute(udb.db);
};
