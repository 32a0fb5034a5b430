import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef, TableDef } from "../schema/types";

/** `"name" TYPE [NOT NULL]` for one user column; UNIQUE and FOREIGN KEY are table-level clauses. */
export const columnSql = (udb: UserDb, col: ColumnDef, opts: { forceNullable?: boolean } = {}): RawBuilder<unknown> => {
  const spec = TYPE_SPECS[col.type];
  const type = udb.engine === "mysql" ? spec.mysql(col) : spec.sqlite(col);
  const notNull = !col.nullable && !opts.forceNullable ? sql` NOT NULL` : sql``;
  return sql`${sql.id(col.name)} ${sql.raw(type)}${notNull}`;
};

const AUTO_SQL = {
  mysql: {
    id: sql`${sql.id("id")} BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY`,
    stamp: (name: string) => sql`${sql.id(name)} DATETIME(3) NOT NULL`,
  },
  sqlite: {
    id: sql`${sql.id("id")} INTEGER PRIMARY KEY AUTOINCREMENT`,
    stamp: (name: string) => sql`${sql.id(name)} TEXT NOT NULL`,
  },
};

/**
 * CREATE TABLE for a table definition. SQLite gets its foreign keys inline (checked lazily, so targets may
 * come later); MySQL gets them from `addForeignKeysSql` once every target exists.
 */
export const createTableSql = (udb: UserDb, table: TableDef): RawBuilder<unknown> => {
  const auto = AUTO_SQL[udb.engine];
  const parts: RawBuilder<unknown>[] = [auto.id];
  for (const col of table.columns) {
    let def = columnSql(udb, col);
    if (udb.engine === "sqlite" && col.references) def = sql`${def} REFERENCES ${sql.id(col.references)} (${sql.id("id")})`;
    parts.push(def);
  }
  parts.push(auto.stamp("created_at"), auto.stamp("updated_at"));
  for (const col of table.columns) {
    if (col.unique) parts.push(sql`UNIQUE (${sql.id(col.name)})`);
  }
  const tail = udb.engine === "mysql" ? sql` ENGINE=InnoDB` : sql``;
  return sql`CREATE TABLE ${udb.table(table.name)} (${sql.join(parts)})${tail}`;
};

/** MySQL: ALTER TABLE … ADD FOREIGN KEY for each reference column (RESTRICT on delete: 409 to clients). */
export const addForeignKeysSql = (udb: UserDb, table: TableDef, columns = table.columns): RawBuilder<unknown> | undefined => {
  const refs = columns.filter((c) => c.references);
  if (udb.engine !== "mysql" || refs.length === 0) return undefined;
  const clauses = refs.map(
    (c) => sql`ADD FOREIGN KEY (${sql.id(c.name)}) REFERENCES ${udb.table(c.references!)} (${sql.id("id")})`,
  );
  return sql`ALTER TABLE ${udb.table(table.name)} ${sql.join(clauses)}`;
};
