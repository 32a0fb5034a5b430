// Database auth names its users table and, in it, the login and password columns: renames follow; dropping
// them, or changing them so login could no longer work, is refused with 409 naming the auth settings.
import { conflict } from "../../errors";
import type { AuthSettings, ColumnDef, DatabaseSchema, TableDef } from "../../schema/types";
import { nowIso } from "../context";
import { type BesideSchema, columnRename, type MetaTrx, type SchemaDependent } from "./schema-change";
import { isSecret, isTextual } from "../../schema/type-traits";

const isUsersTable = ({ auth }: BesideSchema, table: TableDef) => auth?.users_table === table.name;

const isAuthColumn = (beside: BesideSchema, table: TableDef, column: string) =>
  isUsersTable(beside, table) && (beside.auth?.login_column === column || beside.auth?.password_column === column);

/** The same requirements checkAuthTables checks when auth is turned on. */
const stillUsable = (auth: AuthSettings, from: ColumnDef, to: ColumnDef) =>
  from.name === auth.login_column ? isTextual(to) && to.unique : isSecret(to);

const save = async (trx: MetaTrx, schema: DatabaseSchema, settings: AuthSettings) => {
  await trx.updateTable("database_auth").set({ settings: JSON.stringify(settings), updated_at: nowIso() }).where("database_id", "=", schema.id).execute();
};

export const authDependent: SchemaDependent = {
  name: "auth",
  refuse: (_schema, change, beside) => {
    const { auth } = beside;
    if (change.kind === "drop-table" && isUsersTable(beside, change.table) && auth?.enabled) {
      throw conflict(`Table "${change.table.name}" is the users table of database auth; turn auth off or choose another users table first.`);
    }
    if (change.kind === "drop-column" && isAuthColumn(beside, change.table, change.column.name)) {
      throw conflict(`Column "${change.column.name}" is the login or password column of database auth; change the auth settings first.`);
    }
    if (change.kind === "update-column" && auth?.enabled && isAuthColumn(beside, change.table, change.from.name)) {
      if (!stillUsable(auth, change.from, change.to)) {
        throw conflict(
          `Column "${change.from.name}" is the login or password column of database auth (login: unique varchar or text; password: type password); change the auth settings first.`,
        );
      }
    }
  },
  follow: async (trx, schema, change, beside) => {
    if (!beside.auth) return;
    const { secret: _secret, ...settings } = beside.auth;
    const rename = columnRename(change);
    if (rename && isAuthColumn(beside, rename.table, rename.from)) {
      if (settings.login_column === rename.from) settings.login_column = rename.to;
      if (settings.password_column === rename.from) settings.password_column = rename.to;
      await save(trx, schema, settings);
    }
    // The users table is stored by id, so its name in the settings text is only kept in step.
    if (change.kind === "rename-table" && isUsersTable(beside, change.table)) await save(trx, schema, { ...settings, users_table: change.to });
  },
};
