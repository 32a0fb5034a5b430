import { bumpMetaVersion, type Ctx } from "../context";
import { getDatabaseOrThrow } from "./get-database-or-throw";
import { metaTransaction } from "../../db/meta-transaction";

export type DeleteDatabaseInput = { instance: string };

/** DELETE /databases/{instance}: removes its tables, rows and keys for good. */
export const deleteDatabase = async (ctx: Ctx, { instance }: DeleteDatabaseInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const { app } = ctx;
  await metaTransaction(app.engine.meta, async (trx) => {
    await trx.deleteFrom("api_keys").where("database_id", "=", schema.id).execute();
    await trx.deleteFrom("tables").where("database_id", "=", schema.id).execute();
    await trx.deleteFrom("databases").where("id", "=", schema.id).execute();
    await bumpMetaVersion(trx);
  });
  app.events.publish({ kind: "database", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
  await app.engine.dropUserDb(schema.physical);
};
