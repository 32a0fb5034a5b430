import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { ColumnDef, TableDef } from "../schema/types";
import { columnSql } from "./column-sql";
import { addForeignKeyClause, addUniqueClause, alterMysqlTable } from "./mysql-constraints";
import { rebuildSqliteTable } from "./rebuild-sqlite-table";
import { engineIndexes } from "../schema/indexes";
import { physicalColumns } from "./physical-columns";

/**
 * Adds a column after the table's other user columns; existing rows get `fill` (the stored form of its
 * default, or null). The default is not kept in the DDL: the data API applies it on insert.
 */
export const addColumnDdl = async (udb: UserDb, physical: string, table: TableDef, column: ColumnDef, fill: unknown) => {
  const next = { ...table, columns: [...table.columns, column] };
  // A run of this change whose metadata commit lost a race already added the column (one atomic ALTER): done.
  if ((await physicalColumns(udb, physical, table.name))?.has(column.name)) return;
  if (udb.engine === "mysql") {
    const after = table.columns.at(-1)?.name ?? "id";
    const def = columnSql(udb, column);
    const add = fill === null ? sql`ADD COLUMN ${def}` : sql`ADD COLUMN ${def} DEFAULT (${fill})`;
    const clauses = [sql`${add} AFTER ${sql.id(after)}`];
    if (column.unique) clauses.push(addUniqueClause(column.name));
    // The column's own index comes before its foreign key, which then uses it instead of adding a second one.
    for (const index of engineIndexes(next).filter((i) => i.columns.join() === column.name)) {
      clauses.push(sql`ADD ${sql.raw(index.unique ? "UNIQUE INDEX" : "INDEX")} ${sql.id(index.name)} (${sql.id(column.name)})`);
    }
    if (column.references) clauses.push(addForeignKeyClause(udb, column.name, column.references));
    await alterMysqlTable(udb, table.name, clauses);
    if (fill !== null) await alterMysqlTable(udb, table.name, [sql`ALTER COLUMN ${sql.id(column.name)} DROP DEFAULT`]);
    return;
  }
  // SQLite adds a column in place only without NOT NULL or UNIQUE (and a NULL default for a reference).
  if (!column.nullable || column.unique) {
    await rebuildSqliteTable(udb, { from: table.name, next, sources: { [column.name]: sql`${fill}` } });
    return;
  }
  const ref = column.references ? sql` REFERENCES ${sql.id(column.references)} (${sql.id("id")})` : sql``;
  await udb.db.transaction().execute(async (trx) => {
    await sql`ALTER TABLE ${udb.table(table.name)} ADD COLUMN ${columnSql(udb, column)}${ref}`.execute(trx);
    if (fill !== null) await sql`UPDATE ${udb.table(table.name)} SET ${sql.id(column.name)} = ${fill}`.execute(trx);
  });
};
