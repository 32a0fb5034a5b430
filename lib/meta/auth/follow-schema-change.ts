// Keeps database auth settings and row policies consistent with table and column changes: a rename rewrites
// them, a drop of something they use is refused with 409 naming the user.
import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import { conflict } from "../../errors";
import { policyColumns, renamePolicyColumn } from "../../rls/parse-policy";
import type { DatabaseSchema, TableDef } from "../../schema/types";
import { nowIso } from "../context";
import { POLICY_ACTIONS } from "../policies/get-policies";

const isUsersTable = (schema: DatabaseSchema, table: TableDef) => schema.auth?.users_table === table.name;

/** 409 when the table is the users table of database auth (turn auth off or pick another table first). */
export const refuseIfAuthUsesTable = (schema: DatabaseSchema, table: TableDef) => {
  if (isUsersTable(schema, table) && schema.auth?.enabled) {
    throw conflict(`Table "${table.name}" is the users table of database auth; turn auth off or choose another users table first.`);
  }
};

/** 409 when a policy of the table or the auth settings name the column. */
export const refuseIfAuthUsesColumn = (schema: DatabaseSchema, table: TableDef, column: string) => {
  for (const action of POLICY_ACTIONS) {
    const text = table.policies?.[action];
    if (typeof text === "string" && policyColumns(text).includes(column)) {
      throw conflict(`Column "${column}" is used by the ${action} policy of table "${table.name}"; change that policy first.`);
    }
  }
  if (isUsersTable(schema, table) && (schema.auth?.login_column === column || schema.auth?.password_column === column)) {
    throw conflict(`Column "${column}" is the login or password column of database auth; change the auth settings first.`);
  }
};

/** Rewrites the table's policies and the auth settings for a renamed column; call inside the renaming transaction. */
export const renameColumnInAuth = async (
  trx: Kysely<MetaDb> | Transaction<MetaDb>,
  schema: DatabaseSchema,
  { table, from, to }: { table: TableDef; from: string; to: string },
) => {
  if (from === to) return;
  if (table.policies) {
    const policies = Object.fromEntries(
      POLICY_ACTIONS.map((a) => {
        const text = table.policies?.[a];
        return [a, typeof text === "string" ? renamePolicyColumn(text, from, to) : null];
      }),
    );
    await trx.updateTable("table_policies").set({ policies: JSON.stringify(policies), updated_at: nowIso() }).where("table_id", "=", table.id).execute();
  }
  const auth = schema.auth;
  if (auth && isUsersTable(schema, table) && (auth.login_column === from || auth.password_column === from)) {
    const { secret: _secret, ...settings } = auth;
    if (settings.login_column === from) settings.login_column = to;
    if (settings.password_column === from) settings.password_column = to;
    await trx.updateTable("database_auth").set({ settings: JSON.stringify(settings), updated_at: nowIso() }).where("database_id", "=", schema.id).execute();
  }
};
