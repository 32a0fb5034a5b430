import { ApiError, type FieldError, validationFailed } from "../errors";
import { type Ctx, requireAccountScope } from "../meta/context";
import { readSettings, type Settings } from "./get-settings";
import { settingsDb } from "./settings-table";

const SIGNUP_MODES = ["open", "operator"];

/** Settings are the operator's: everyone else gets a 403 (reads included, they say how the install is run). */
export const requireOperator = (ctx: Ctx) => {
  requireAccountScope(ctx);
  if (!ctx.actor.isOperator) throw new ApiError("forbidden", "Only the operator of this install can do this.");
};

export const getSettings = async (ctx: Ctx) => {
  requireOperator(ctx);
  return readSettings(ctx.app);
};

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

/** PATCH /settings: changes the named settings only. */
export const updateSettings = async (ctx: Ctx, input: unknown) => {
  requireOperator(ctx);
  const changes = parseSettings(input);
  const db = settingsDb(ctx.app.engine.meta);
  await db.transaction().execute(async (trx) => {
    for (const [name, value] of Object.entries(changes)) {
      // Select first: MySQL reports 0 affected rows for an UPDATE that changes nothing.
      const exists = await trx.selectFrom("settings").select("name").where("name", "=", name).executeTakeFirst();
      if (exists) await trx.updateTable("settings").set({ value: String(value) }).where("name", "=", name).execute();
      else await trx.insertInto("settings").values({ name, value: String(value) }).execute();
    }
  });
  return readSettings(ctx.app);
};
