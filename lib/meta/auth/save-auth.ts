import { randomBytes } from "node:crypto";
import type { App } from "../../app";
import { encryptKey } from "../../keys/key-crypto";
import type { AuthSettings, DatabaseSchema } from "../../schema/types";
import { bumpMetaVersion, nowIso } from "../context";

/** Writes the settings (and a new signing secret when `rotate` or when there is none yet). */
export const saveAuth = async (app: App, schema: DatabaseSchema, settings: AuthSettings, rotate: boolean) => {
  const { users_table, ...rest } = settings;
  const usersTableId = schema.tables.get(users_table)?.id ?? null;
  const row = { users_table_id: usersTableId, settings: JSON.stringify({ ...rest, users_table }), updated_at: nowIso() };
  const newSecret = () => encryptKey(app.secret, randomBytes(32).toString("base64url"));
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    const existing = await trx.selectFrom("database_auth").select("database_id").where("database_id", "=", schema.id).executeTakeFirst();
    if (!existing) {
      await trx.insertInto("database_auth").values({ database_id: schema.id, ...row, secret_enc: newSecret() }).execute();
    } else {
      await trx.updateTable("database_auth").set(rotate ? { ...row, secret_enc: newSecret() } : row).where("database_id", "=", schema.id).execute();
    }
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
};
