import { notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";
import { pathId } from "../../http/path-id";

/** The webhook of a database the actor can reach; any other id is the same 404. */
export const getWebhookOrThrow = async (ctx: DbCtx, instance: string, idText: string) => {
  const { schema } = ctx.database;
  const missing = `No webhook ${idText} in database "${instance}".`;
  const id = pathId(idText, missing);
  const row = await ctx.app.engine.meta.selectFrom("webhooks").selectAll().where("id", "=", id).where("database_id", "=", schema.id).executeTakeFirst();
  if (!row) throw notFound(missing);
  return { schema, row };
};
