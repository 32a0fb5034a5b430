import type { z } from "zod";
import type { DatabasePatch } from "../../mgmt/schemas/databases";
import { type Ctx, nowIso } from "../context";
import { changeSchema } from "../schema-change/change-schema";
import { getDatabase } from "./get-database";
import { getDatabaseOrThrow } from "./get-database-or-throw";

export type UpdateDatabaseInput = { instance: string; body: z.output<typeof DatabasePatch> };

/** PATCH /databases/{instance} `{name}`: renames the display name; the instance never changes. */
export const updateDatabase = async (ctx: Ctx, { instance, body }: UpdateDatabaseInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const name = body.name.trim();
  await changeSchema(ctx, schema, { kind: "rename-database", name }, {
    metadata: async (trx) => void (await trx.updateTable("databases").set({ name, updated_at: nowIso() }).where("id", "=", schema.id).execute()),
  });
  return getDatabase(ctx, { instance });
};
