import type { z } from "zod";
import type { Ctx } from "../../lib/meta/context";
import { parseWith } from "../../lib/mgmt/parse-input";

/**
 * A service called the way its route calls it: the raw body parsed by the route's schema first, so bad input
 * is the same 422 an HTTP caller gets (services take only parsed input).
 */
export const withRouteBody =
  <S extends z.ZodType, I extends { body: z.output<S> }, R>(schema: S, service: (ctx: Ctx, input: I) => Promise<R>) =>
  async (ctx: Ctx, input: Omit<I, "body"> & { body: unknown }): Promise<R> =>
    service(ctx, { ...input, body: parseWith(schema, input.body) } as I);
