import { randomBytes } from "node:crypto";
import { encryptKey } from "../../keys/key-crypto";
import type { AuthSettings, DatabaseSchema } from "../../schema/types";
import { type Ctx, nowIso } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { endDatabaseSessions } from "../../db-auth/sessions";

/** Writes the settings (and a new signing secret when `rotate` or when there is none yet). */
export const saveAuth = async (ctx: Ctx, schema: DatabaseSchema, { settings, rotate }: { settings: AuthSettings; rotate: boolean }) => {
  const { users_table, ...rest } = settings;
  const usersTableId = schema.tables.get(users_table)?.id ?? null;
  const row = { users_table_id: usersTableId, settings: JSON.stringify({ ...rest, users_table }), updated_at: nowIso() };
  const newSecret = () => encryptKey(ctx.app.secret, randomBytes(32).toString("base64url"));
  await changeSchema(ctx, schema, { kind: "auth", rotate }, {
    metadata: async (trx) => {
      const existing = await trx.selectFrom("database_auth").select("database_id").where("database_id", "=", schema.id).executeTakeFirst();
      if (!existing) {
        await trx.insertInto("database_auth").values({ database_id: schema.id, ...row, secret_enc: newSecret() }).execute();
      } else {
        await trx.updateTable("database_auth").set(rotate ? { ...row, secret_enc: newSecret() } : row).where("database_id", "=", schema.id).execute();
        // A new secret ends every session: access tokens fail their signature, refresh tokens their family.
        if (rotate) await endDatabaseSessions(trx, schema.id, "secret_rotated");
      }
    },
  });
};
