import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { authView } from "./auth-view";

/** GET /databases/{instance}/auth */
export const getAuth = async (ctx: Ctx, instance: string) => authView(await getDatabaseOrThrow(ctx, instance));
