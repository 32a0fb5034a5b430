import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import type { ColumnDef, TableDef } from "../schema/types";
import { columnSql } from "./column-sql";
import { addForeignKeyClause, addUniqueClause, alterMysqlTable } from "./mysql-constraints";
import { rebuildSqliteTable } from "./rebuild-sqlite-table";
import { engineIndexes } from "../schema/indexes";
import { physicalColumns } from "./physical-columns";

/** A column to add and what existing rows get in it (the stored form of its default, or null). */
export type AddedColumn = { column: ColumnDef; fill: unknown };

/**
 * Adds columns after the table's other user columns, all or none: one ALTER TABLE on MariaDB, one transaction
 * on SQLite. The defaults are not kept in the DDL: the data API applies them on insert.
 */
export const addColumnsDdl = async (udb: UserDb, physical: string, table: TableDef, added: AddedColumn[]) => {
  const next = { ...table, columns: [...table.columns, ...added.map((a) => a.column)] };
  // A run of this change whose metadata commit lost a race already added the columns (one atomic change): done.
  const present = await physicalColumns(udb, physical, table.name);
  if (added.every((a) => present?.has(a.column.name))) return;
  if (udb.engine === "mysql") {
    const clauses = added.flatMap(({ column, fill }, i) => {
      const after = i ? added[i - 1].column.name : (table.columns.at(-1)?.name ?? "id");
      const def = columnSql(udb, column);
      const add = fill === null ? sql`ADD COLUMN ${def}` : sql`ADD COLUMN ${def} DEFAULT (${fill})`;
      const own = [sql`${add} AFTER ${sql.id(after)}`];
      if (column.unique) own.push(addUniqueClause(column.name));
      // The column's own index comes before its foreign key, which then uses it instead of adding a second one.
      for (const index of engineIndexes(next).filter((x) => x.columns.join() === column.name)) {
        own.push(sql`ADD ${sql.raw(index.unique ? "UNIQUE INDEX" : "INDEX")} ${sql.id(index.name)} (${sql.id(column.name)})`);
      }
      if (column.references) own.push(addForeignKeyClause(udb, column.name, column.references));
      return own;
    });
    await alterMysqlTable(udb, table.name, clauses);
    const filled = added.filter((a) => a.fill !== null);
    if (filled.length) await alterMysqlTable(udb, table.name, filled.map((a) => sql`ALTER COLUMN ${sql.id(a.column.name)} DROP DEFAULT`));
    return;
  }
  // SQLite adds a column in place only without NOT NULL or UNIQUE (and a NULL default for a reference).
  if (added.some(({ column }) => !column.nullable || column.unique)) {
    await rebuildSqliteTable(udb, { from: table.name, next, sources: Object.fromEntries(added.map((a) => [a.column.name, sql`${a.fill}`])) });
    return;
  }
  await udb.db.transaction().execute(async (trx) => {
    for (const { column, fill } of added) {
      const ref = column.references ? sql` REFERENCES ${sql.id(column.references)} (${sql.id("id")})` : sql``;
      await sql`ALTER TABLE ${udb.table(table.name)} ADD COLUMN ${columnSql(udb, column)}${ref}`.execute(trx);
      if (fill !== null) await sql`UPDATE ${udb.table(table.name)} SET ${sql.id(column.name)} = ${fill}`.execute(trx);
    }
  });
};
