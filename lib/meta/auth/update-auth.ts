import { type Ctx, requireAccountScope } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { getAuth } from "./get-auth";
import { parseAuthSettings } from "./parse-auth-settings";
import { saveAuth } from "./save-auth";

/** PUT /databases/{instance}/auth replaces the whole settings object; the first save makes the signing secret. */
export const updateAuth = async (ctx: Ctx, instance: string, input: unknown) => {
  requireAccountScope(ctx);
  const schema = await getDatabaseOrThrow(ctx, instance);
  const settings = parseAuthSettings(schema, input);
  await saveAuth(ctx.app, schema, settings, false);
  return getAuth(ctx, instance);
};
