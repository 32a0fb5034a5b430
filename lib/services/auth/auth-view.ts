import type { AuthSettings, DatabaseSchema } from "../../schema/types";
import { DEFAULT_AUTH } from "./load-auth";

/** The settings as the management API shows them (never the secret). */
export const authView = (schema: DatabaseSchema): AuthSettings => {
  if (!schema.auth) return { ...DEFAULT_AUTH };
  const { secret: _secret, ...settings } = schema.auth;
  return settings;
};
