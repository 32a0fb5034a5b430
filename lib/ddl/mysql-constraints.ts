// MySQL names foreign keys `<table>_ibfk_N` and unique indexes after their column (or `col_2`, and keeps the
// old name when the column is renamed), so they are looked up in information_schema, never guessed.
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";

export type Where = { udb: UserDb; physical: string; table: string; column: string };

const foreignKeyNames = async ({ udb, physical, table, column }: Where) => {
  const { rows } = await sql<{ name: string }>`
    SELECT CONSTRAINT_NAME AS ${sql.id("name")} FROM information_schema.KEY_COLUMN_USAGE
    WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table} AND COLUMN_NAME = ${column}
      AND REFERENCED_TABLE_NAME IS NOT NULL`.execute(udb.db);
  return rows.map((r) => r.name);
};

/** Single-column indexes on the column (other than the primary key). */
const indexes = async ({ udb, physical, table, column }: Where) => {
  const { rows } = await sql<{ name: string; nonUnique: number | string }>`
    SELECT INDEX_NAME AS ${sql.id("name")}, MAX(NON_UNIQUE) AS ${sql.id("nonUnique")}
    FROM information_schema.STATISTICS
    WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table} AND INDEX_NAME <> 'PRIMARY'
    GROUP BY INDEX_NAME
    HAVING COUNT(*) = 1 AND MAX(COLUMN_NAME) = ${column}`.execute(udb.db);
  return rows.map((r) => ({ name: r.name, unique: Number(r.nonUnique) === 0 }));
};

/** One ALTER TABLE with several clauses (nothing when there are none). */
export const alterMysqlTable = async (udb: UserDb, table: string, clauses: RawBuilder<unknown>[]) => {
  if (clauses.length) await sql`ALTER TABLE ${udb.table(table)} ${sql.join(clauses)}`.execute(udb.db);
};

const alter = (w: Where, clauses: RawBuilder<unknown>[]) => alterMysqlTable(w.udb, w.table, clauses);

export const dropMysqlForeignKeys = async (w: Where) =>
  alter(w, (await foreignKeyNames(w)).map((name) => sql`DROP FOREIGN KEY ${sql.id(name)}`));

/** Drops the column's unique index, its plain index (left behind by a dropped foreign key), or both. */
export const dropMysqlIndexes = async (w: Where, which: { unique: boolean; plain: boolean }) =>
  alter(
    w,
    (await indexes(w)).filter((i) => (i.unique ? which.unique : which.plain)).map((i) => sql`DROP INDEX ${sql.id(i.name)}`),
  );

export const addUniqueClause = (column: string) => sql`ADD UNIQUE (${sql.id(column)})`;

export const addForeignKeyClause = (udb: UserDb, column: string, target: string) =>
  sql`ADD FOREIGN KEY (${sql.id(column)}) REFERENCES ${udb.table(target)} (${sql.id("id")})`;
