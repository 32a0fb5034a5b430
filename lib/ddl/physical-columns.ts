import { sql } from "kysely";
import type { UserDb } from "../db/engine";

/**
 * The columns a user table has in the engine (information_schema / pragma_table_info), or undefined when the
 * table does not exist: what idempotent DDL and the schema reconciler check before they act.
 */
export const physicalColumns = async (udb: UserDb, physical: string, table: string): Promise<Set<string> | undefined> => {
  const { rows } =
    udb.engine === "mysql"
      ? await sql<{ name: string }>`SELECT COLUMN_NAME AS ${sql.id("name")} FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table}`.execute(udb.db)
      : await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(udb.db);
  return rows.length ? new Set(rows.map((r) => r.name)) : undefined;
};

/** Every user table of a database with its columns, as the engine has them. */
export const physicalTables = async (udb: UserDb, physical: string): Promise<Map<string, Set<string>>> => {
  const { rows } =
    udb.engine === "mysql"
      ? await sql<{ tbl: string; name: string }>`SELECT TABLE_NAME AS ${sql.id("tbl")}, COLUMN_NAME AS ${sql.id("name")}
          FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ${physical}`.execute(udb.db)
      : await sql<{ tbl: string; name: string }>`SELECT m.name AS tbl, c.name AS name FROM sqlite_master AS m, pragma_table_info(m.name) AS c
          WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`.execute(udb.db);
  const tables = new Map<string, Set<string>>();
  for (const { tbl, name } of rows) tables.set(tbl, (tables.get(tbl) ?? new Set()).add(name));
  return tables;
};
