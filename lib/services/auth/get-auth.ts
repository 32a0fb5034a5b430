import type { DbCtx } from "../../meta/context";
import { authView } from "./auth-view";

export type GetAuthInput = { instance: string };

/** GET /databases/{instance}/auth */
export const getAuth = async (ctx: DbCtx, { instance }: GetAuthInput) => authView(ctx.database);
