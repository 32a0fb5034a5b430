import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { getAuth } from "./get-auth";
import { parseAuthSettings } from "./parse-auth-settings";
import { saveAuth } from "./save-auth";

export type UpdateAuthInput = { instance: string; body: unknown };

/** PUT /databases/{instance}/auth replaces the whole settings object; the first save makes the signing secret. */
export const updateAuth = async (ctx: Ctx, { instance, body: input }: UpdateAuthInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const settings = parseAuthSettings(schema, input);
  await saveAuth(ctx, schema, { settings, rotate: false });
  return getAuth(ctx, { instance });
};
