import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { authView } from "./auth-view";

export type GetAuthInput = { instance: string };

/** GET /databases/{instance}/auth */
export const getAuth = async (ctx: Ctx, { instance }: GetAuthInput) => authView(await getDatabaseOrThrow(ctx, instance));
