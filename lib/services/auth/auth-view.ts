import type { LoadedDatabase } from "../../meta/schema-cache";
import type { AuthSettings } from "../../schema/types";
import { DEFAULT_AUTH } from "../../meta/load-auth";
import { maskProviders } from "./provider-secrets";

/** The stored settings without the signing secret, OAuth client secrets included: for saving them again and for backups. */
export const storedAuth = ({ auth }: Pick<LoadedDatabase, "auth">): AuthSettings => {
  if (!auth) return { ...DEFAULT_AUTH };
  const { secret: _secret, ...settings } = auth;
  return settings;
};

/** The settings as the management API shows them: never the signing secret, OAuth client secrets masked. */
export const authView = (database: Pick<LoadedDatabase, "auth">): AuthSettings => {
  const settings = storedAuth(database);
  return { ...settings, providers: maskProviders(settings.providers) };
};
