import { bumpMetaVersion, type Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { getJoinOrThrow } from "./get-join-or-throw";

export type DeleteJoinInput = { instance: string; join: string };

export const deleteJoin = async (ctx: Ctx, { instance, join: name }: DeleteJoinInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const join = getJoinOrThrow(schema, name);
  const { app } = ctx;
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    await trx.deleteFrom("joins").where("id", "=", join.id).execute();
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
};
