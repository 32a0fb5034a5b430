import type { Ctx, DbCtx } from "../../meta/context";
import { getDatabaseOrThrow } from "./get-database-or-throw";

/**
 * For callers outside a route (the AI builder applying a plan, scripts, tests): the ctx a database route's
 * service gets, the database loaded and checked as authorize does. Load it again after a change.
 */
export const databaseCtx = async (ctx: Ctx, instance: string): Promise<DbCtx> => ({ ...ctx, database: await getDatabaseOrThrow(ctx, instance) });

/** The same ctx with the database read again: what a service answers after its own change. */
export const reloadDatabase = (ctx: DbCtx): Promise<DbCtx> => databaseCtx(ctx, ctx.database.schema.instance);
