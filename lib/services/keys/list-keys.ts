import type { Ctx } from "../../meta/context";
import { keyView } from "./key-view";

export type ListKeysInput = Record<string, never>;

/** GET /keys: the account's live keys, newest first. */
export const listKeys = async (ctx: Ctx, _input: ListKeysInput) => {
  const rows = await ctx.app.engine.meta
    .selectFrom("api_keys")
    .leftJoin("databases", "databases.id", "api_keys.database_id")
    .select(["api_keys.id", "api_keys.name", "api_keys.key_enc", "api_keys.database_id", "api_keys.created_at", "databases.instance"])
    .where("api_keys.account_id", "=", ctx.actor.accountId)
    .where("api_keys.revoked_at", "is", null)
    .orderBy("api_keys.id", "desc")
    .execute();
  return rows.map((r) => keyView(ctx.app, r, r.instance ?? null));
};
