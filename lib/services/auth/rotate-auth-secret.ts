import type { DbCtx } from "../../meta/context";
import { reloadDatabase } from "../databases/database-ctx";
import { storedAuth } from "./auth-view";
import { getAuth } from "./get-auth";
import { saveAuth } from "./save-auth";

export type RotateAuthSecretInput = { instance: string };

/** POST /databases/{instance}/auth/rotate-secret: a new signing secret; every token issued so far stops working. */
export const rotateAuthSecret = async (ctx: DbCtx, { instance }: RotateAuthSecretInput) => {
  await saveAuth(ctx, ctx.database.schema, { settings: storedAuth(ctx.database), rotate: true });
  return getAuth(await reloadDatabase(ctx), { instance });
};
