import { notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";

/** The webhook of a database the actor can reach; any other id is the same 404. */
export const getWebhookOrThrow = async (ctx: DbCtx, instance: string, id: number) => {
  const { schema } = ctx.database;
    const row = await ctx.app.engine.meta.selectFrom("webhooks").selectAll().where("id", "=", id).where("database_id", "=", schema.id).executeTakeFirst();
  if (!row) throw notFound(`No webhook ${id} in database "${instance}".`);
  return { schema, row };
};
