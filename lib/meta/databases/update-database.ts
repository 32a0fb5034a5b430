import { type FieldError, validationFailed } from "../../errors";
import { bumpMetaVersion, type Ctx, nowIso } from "../context";
import { parseDatabaseName } from "./create-database";
import { getDatabase } from "./get-database";
import { getDatabaseOrThrow } from "./get-database-or-throw";

/** PATCH /databases/{instance} `{name}`: renames the display name; the instance never changes. */
export type UpdateDatabaseInput = { instance: string; body: unknown };

export const updateDatabase = async (ctx: Ctx, { instance, body: input }: UpdateDatabaseInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const body = (typeof input === "object" && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const errors: FieldError[] = Object.keys(body)
    .filter((k) => k !== "name")
    .map((k) => ({ field: k, code: "unknown_property", message: `unknown property "${k}" (only name can change)` }));
  const nameError = parseDatabaseName(body.name);
  if (nameError) errors.push(nameError);
  if (errors.length) throw validationFailed(errors);
  await ctx.app.engine.meta.transaction().execute(async (trx) => {
    await trx.updateTable("databases").set({ name: (body.name as string).trim(), updated_at: nowIso() }).where("id", "=", schema.id).execute();
    await bumpMetaVersion(trx, schema.id);
  });
  ctx.app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
  return getDatabase(ctx, { instance });
};
