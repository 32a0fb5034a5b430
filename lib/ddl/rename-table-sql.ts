import { sql } from "kysely";
import type { UserDb } from "../db/engine";

/** Renames a table; both engines point the foreign keys of other tables at the new name themselves. */
export const renameTableSql = (udb: UserDb, from: string, to: string) =>
  udb.engine === "mysql"
    ? sql`RENAME TABLE ${udb.table(from)} TO ${udb.table(to)}`
    : sql`ALTER TABLE ${udb.table(from)} RENAME TO ${sql.id(to)}`;
