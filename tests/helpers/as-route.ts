import type { z } from "zod";
import type { Ctx, DbCtx } from "../../lib/meta/context";
import { databaseCtx } from "../../lib/services/databases/database-ctx";
import { parseWith } from "../../lib/contract/parse-input";

/** A database service called the way its route calls it: the database loaded and checked first, as authorize does. */
export const asRoute =
  <I extends { instance: string }, R>(service: (ctx: DbCtx, input: I) => Promise<R>) =>
  async (ctx: Ctx, input: I): Promise<R> =>
    service(await databaseCtx(ctx, input.instance), input);

/** The same with the raw body parsed by the route's schema, so bad input is the 422 an HTTP caller gets. */
export const asRouteWithBody =
  <S extends z.ZodType, I extends { instance: string; body: z.output<S> }, R>(schema: S, service: (ctx: DbCtx, input: I) => Promise<R>) =>
  async (ctx: Ctx, input: Omit<I, "body"> & { body: unknown }): Promise<R> =>
    service(await databaseCtx(ctx, input.instance), { ...input, body: parseWith(schema, input.body) } as I);
