import { type FieldError, validationFailed } from "../errors";
import type { Ctx } from "../meta/context";
import { readSettings, type Settings } from "./get-settings";
import { settingsDb } from "./settings-table";
import { metaTransaction } from "../db/meta-transaction";

const SIGNUP_MODES = ["open", "operator"];

export type GetSettingsInput = Record<string, never>;

/** GET /settings (the route allows only the operator: the settings say how the install is run). */
export const getSettings = async (ctx: Ctx, _input: GetSettingsInput) => readSettings(ctx.app);

const parseSettings = (input: unknown): Partial<Settings> => {
  const body = (typeof input === "object" && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (body !== input) errors.push({ field: "body", code: "invalid_type", message: "the body must be a JSON object" });
  for (const key of Object.keys(body)) {
    if (key !== "signup") errors.push({ field: key, code: "unknown_property", message: `unknown property "${key}"` });
  }
  if (body.signup !== undefined && !SIGNUP_MODES.includes(body.signup as string)) {
    errors.push({ field: "signup", code: "invalid_value", message: `signup must be one of ${SIGNUP_MODES.join(", ")}` });
  }
  if (errors.length) throw validationFailed(errors);
  return body as Partial<Settings>;
};

export type UpdateSettingsInput = { body: unknown };

/** PATCH /settings: changes the named settings only. */
export const updateSettings = async (ctx: Ctx, { body }: UpdateSettingsInput) => {
  const changes = parseSettings(body);
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
