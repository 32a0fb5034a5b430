import type { z } from "zod";
import type { AuthSettingsInput } from "../../contract/schemas/auth";
import type { DbCtx } from "../../meta/context";
import { reloadDatabase } from "../databases/database-ctx";
import { checkAuthTables } from "./check-auth-tables";
import { getAuth } from "./get-auth";
import { DEFAULT_AUTH } from "../../meta/load-auth";
import { storedAuth } from "./auth-view";
import { keepProviderSecrets } from "./provider-secrets";
import { saveAuth } from "./save-auth";

export type UpdateAuthInput = { instance: string; body: z.output<typeof AuthSettingsInput> };

/** PUT /databases/{instance}/auth replaces the whole settings object (omitted fields take their defaults); the first save makes the signing secret. */
export const updateAuth = async (ctx: DbCtx, { instance, body }: UpdateAuthInput) => {
  const { schema } = ctx.database;
  const settings = { ...DEFAULT_AUTH, ...body, cors_origins: [...new Set(body.cors_origins ?? [])], redirect_urls: [...new Set(body.redirect_urls ?? [])] };
  const providers = keepProviderSecrets(storedAuth(ctx.database).providers, body.providers ?? []);
  checkAuthTables(schema, { ...settings, providers });
  await saveAuth(ctx, schema, { settings: { ...settings, providers }, rotate: false });
  return getAuth(await reloadDatabase(ctx), { instance });
};
