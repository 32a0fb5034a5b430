import type { z } from "zod";
import type { DatabasePatch } from "../../contract/schemas/databases";
import { type DbCtx, nowIso } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { reloadDatabase } from "./database-ctx";
import { getDatabase } from "./get-database";

export type UpdateDatabaseInput = { instance: string; body: z.output<typeof DatabasePatch> };

/** PATCH /databases/{instance} `{name}`: renames the display name; the instance never changes. */
export const updateDatabase = async (ctx: DbCtx, { instance, body }: UpdateDatabaseInput) => {
  const { schema } = ctx.database;
  const name = body.name.trim();
  await changeSchema(ctx, schema, { kind: "rename-database", name }, {
    metadata: async (trx) => void (await trx.updateTable("databases").set({ name, updated_at: nowIso() }).where("id", "=", schema.id).execute()),
  });
  return getDatabase(await reloadDatabase(ctx), { instance });
};
