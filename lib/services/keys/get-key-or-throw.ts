import { notFound } from "../../errors";
import type { Ctx } from "../../meta/context";

/** A live key of this account by id; another account's key is the same 404 as a missing one. */
export const getKeyOrThrow = async (ctx: Ctx, id: number) => {
  const row = await ctx.app.engine.meta
        .selectFrom("api_keys")
        .leftJoin("databases", "databases.id", "api_keys.database_id")
        .select(["api_keys.id", "api_keys.name", "api_keys.key_enc", "api_keys.database_id", "api_keys.created_at", "databases.instance"])
        .where("api_keys.id", "=", id)
        .where("api_keys.account_id", "=", ctx.actor.accountId)
        .where("api_keys.revoked_at", "is", null)
        .executeTakeFirst();
  if (!row) throw notFound(`Key ${id} was not found.`);
  return row;
};
