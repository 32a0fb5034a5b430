import type { DbCtx } from "../../meta/context";
import { reloadDatabase } from "../databases/database-ctx";
import { authView } from "./auth-view";
import { getAuth } from "./get-auth";
import { saveAuth } from "./save-auth";

export type RotateAuthSecretInput = { instance: string };

/** POST /databases/{instance}/auth/rotate-secret: a new signing secret; every token issued so far stops working. */
export const rotateAuthSecret = async (ctx: DbCtx, { instance }: RotateAuthSecretInput) => {
  const schema = ctx.database;
  await saveAuth(ctx, schema, { settings: authView(schema), rotate: true });
  return getAuth(await reloadDatabase(ctx), { instance });
};
