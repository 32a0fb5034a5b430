import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { authView } from "./auth-view";
import { getAuth } from "./get-auth";
import { saveAuth } from "./save-auth";

export type RotateAuthSecretInput = { instance: string };

/** POST /databases/{instance}/auth/rotate-secret: a new signing secret; every token issued so far stops working. */
export const rotateAuthSecret = async (ctx: Ctx, { instance }: RotateAuthSecretInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  await saveAuth(ctx, schema, { settings: authView(schema), rotate: true });
  return getAuth(ctx, { instance });
};
