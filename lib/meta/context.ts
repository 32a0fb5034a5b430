import type { Kysely, Transaction } from "kysely";
import type { App } from "../app";
import type { MetaDb } from "../db/meta-schema";
import { ApiError } from "../errors";

/** Who is acting. A key limited to one database carries that database's id. */
export type Actor = { accountId: number; isOperator: boolean; keyDatabaseId: number | null };

export type Ctx = { app: App; actor: Actor };

export const nowIso = () => new Date().toISOString();

/** Management verbs that span the account need an account-wide key (or the dashboard session). */
export const requireAccountScope = (ctx: Ctx) => {
  if (ctx.actor.keyDatabaseId !== null) {
    throw new ApiError("forbidden", "This key is limited to one database; use an account-wide key for this operation.");
  }
};

/** Marks the metadata as changed so every process drops its caches; call inside the writing transaction. */
export const bumpMetaVersion = async (trx: Kysely<MetaDb> | Transaction<MetaDb>, databaseId?: number) => {
  await trx.updateTable("meta_state").set((eb) => ({ version: eb("version", "+", 1) })).where("id", "=", 1).execute();
  if (databaseId !== undefined) {
    await trx
      .updateTable("databases")
      .set((eb) => ({ schema_version: eb("schema_version", "+", 1), updated_at: nowIso() }))
      .where("id", "=", databaseId)
      .execute();
  }
};
