import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { ColumnDef, TableDef } from "../schema/types";
import { alterMysqlTable, dropMysqlForeignKeys } from "./mysql-constraints";
import { rebuildSqliteTable } from "./rebuild-sqlite-table";
import { dropIndexColumn } from "../schema/indexes";
import { managedIndexes } from "./sync-indexes";
import { physicalColumns } from "./physical-columns";

/** Drops a user column with its unique index, foreign key and every index it is part of. */
export const dropColumnDdl = async (udb: UserDb, physical: string, table: TableDef, column: ColumnDef) => {
  // Already gone: an earlier run of this change dropped it and lost its metadata commit.
  if (!(await physicalColumns(udb, physical, table.name))?.has(column.name)) return;
  const indexed = [...(await managedIndexes(udb, physical, table.name))].filter(([, columns]) => columns.includes(column.name));
  if (udb.engine === "mysql") {
    if (column.references) await dropMysqlForeignKeys({ udb, physical, table: table.name, column: column.name });
    // MariaDB would keep an index over several columns with this one left out: drop those indexes with it.
    const dropIndexes = indexed.map(([name]) => sql`DROP INDEX ${sql.id(name)}`);
    await alterMysqlTable(udb, table.name, [...dropIndexes, sql`DROP COLUMN ${sql.id(column.name)}`]);
    return;
  }
  // SQLite's DROP COLUMN refuses a column in a UNIQUE or FOREIGN KEY constraint or an index: rebuild without it instead.
  if (column.unique || column.references || indexed.length) {
    const next = { ...table, columns: table.columns.filter((c) => c.name !== column.name), indexes: dropIndexColumn(table.indexes, column.name) };
    await rebuildSqliteTable(udb, { from: table.name, next });
    return;
  }
  await sql`ALTER TABLE ${udb.table(table.name)} DROP COLUMN ${sql.id(column.name)}`.execute(udb.db);
};
