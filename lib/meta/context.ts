import type { Kysely, Transaction } from "kysely";
import type { App } from "../app";
import type { MetaDb } from "../db/meta-schema";

/** Who is acting (resolved by the management handler, authorized by lib/mgmt/authorize.ts before a service runs). A key limited to one database carries that database's id. */
export type Actor = { accountId: number; isOperator: boolean; keyDatabaseId: number | null };

/** What every service verb takes first: the app, the authorized actor, and the metadata transaction when a caller already holds one. */
export type Ctx = { app: App; actor: Actor; trx?: Transaction<MetaDb> };

export const nowIso = () => new Date().toISOString();

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
