import { type FieldError, validationFailed } from "../../errors";
import { type Ctx, nowIso } from "../context";
import { changeSchema } from "../schema-change/change-schema";
import { parseDatabaseName } from "./create-database";
import { getDatabase } from "./get-database";
import { getDatabaseOrThrow } from "./get-database-or-throw";

export type UpdateDatabaseInput = { instance: string; body: unknown };

/** PATCH /databases/{instance} `{name}`: renames the display name; the instance never changes. */
export const updateDatabase = async (ctx: Ctx, { instance, body: input }: UpdateDatabaseInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const body = (typeof input === "object" && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const errors: FieldError[] = Object.keys(body)
    .filter((k) => k !== "name")
    .map((k) => ({ field: k, code: "unknown_property", message: `unknown property "${k}" (only name can change)` }));
  const nameError = parseDatabaseName(body.name);
  if (nameError) errors.push(nameError);
  if (errors.length) throw validationFailed(errors);
  const name = (body.name as string).trim();
  await changeSchema(ctx, schema, { kind: "rename-database", name }, {
    metadata: async (trx) => void (await trx.updateTable("databases").set({ name, updated_at: nowIso() }).where("id", "=", schema.id).execute()),
  });
  return getDatabase(ctx, { instance });
};
