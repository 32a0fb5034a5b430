import type { LoadedDatabase } from "../../meta/schema-cache";
import type { AuthSettings } from "../../schema/types";
import { DEFAULT_AUTH } from "../../meta/load-auth";

/** The settings as the management API shows them (never the secret). */
export const authView = ({ auth }: Pick<LoadedDatabase, "auth">): AuthSettings => {
  if (!auth) return { ...DEFAULT_AUTH };
  const { secret: _secret, ...settings } = auth;
  return settings;
};
