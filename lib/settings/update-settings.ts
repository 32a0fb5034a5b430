import type { z } from "zod";
import type { SettingsPatch } from "../mgmt/schemas/accounts";
import type { Ctx } from "../meta/context";
import { readSettings, type Settings } from "./get-settings";
import { settingsDb } from "./settings-table";
import { metaTransaction } from "../db/meta-transaction";

export type GetSettingsInput = Record<string, never>;

/** GET /settings (the route allows only the operator: the settings say how the install is run). */
export const getSettings = async (ctx: Ctx, _input: GetSettingsInput) => readSettings(ctx.app);

export type UpdateSettingsInput = { body: z.output<typeof SettingsPatch> };

/** PATCH /settings: changes the named settings only (the route's SettingsPatch has checked them). */
export const updateSettings = async (ctx: Ctx, { body: changes }: UpdateSettingsInput) => {
  const db = settingsDb(ctx.app.engine.meta);
  await metaTransaction(db, async (trx) => {
    for (const [name, value] of Object.entries(changes)) {
      // Select first: MySQL reports 0 affected rows for an UPDATE that changes nothing.
      const exists = await trx.selectFrom("settings").select("name").where("name", "=", name).executeTakeFirst();
      if (exists) await trx.updateTable("settings").set({ value: String(value) }).where("name", "=", name).execute();
      else await trx.insertInto("settings").values({ name, value: String(value) }).execute();
    }
  });
  return readSettings(ctx.app);
};
