import type { z } from "zod";
import type { SettingsPatch } from "../../contract/schemas/accounts";
import type { Ctx } from "../../meta/context";
import { readSettings } from "../../settings/read-settings";
import { settingsDb } from "../../settings/settings-table";
import { commitRows } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";

export type UpdateSettingsInput = { body: z.output<typeof SettingsPatch> };

/** PATCH /settings: changes the named settings only (the route's SettingsPatch has checked them). */
export const updateSettings = async (ctx: Ctx, { body: changes }: UpdateSettingsInput) => {
  noteAudit(ctx, { before: await readSettings(ctx.app) });
  await commitRows(ctx, async (meta) => {
    const trx = settingsDb(meta);
    for (const [name, value] of Object.entries(changes)) {
      // Select first: MySQL reports 0 affected rows for an UPDATE that changes nothing.
      const exists = await trx.selectFrom("settings").select("name").where("name", "=", name).executeTakeFirst();
      if (exists) await trx.updateTable("settings").set({ value: String(value) }).where("name", "=", name).execute();
      else await trx.insertInto("settings").values({ name, value: String(value) }).execute();
    }
  });
  return readSettings(ctx.app);
};
