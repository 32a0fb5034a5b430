import type { DbCtx } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { deleteDatabaseFiles } from "../../api/files/drop-files";
import { abortBackups } from "../../backup/backup-jobs";

export type DeleteDatabaseInput = { instance: string };

/** DELETE /databases/{instance}: removes its tables, rows, keys and files for good. */
export const deleteDatabase = async (ctx: DbCtx, { instance }: DeleteDatabaseInput) => {
  const { schema } = ctx.database;
  const { app } = ctx;
  await commitMeta(ctx, { kind: "database", databaseId: schema.id, instance: schema.instance, physical: schema.physical }, async (trx) => {
    await trx.deleteFrom("api_keys").where("database_id", "=", schema.id).execute();
    await trx.deleteFrom("tables").where("database_id", "=", schema.id).execute();
    await trx.deleteFrom("databases").where("id", "=", schema.id).execute();
  });
  await abortBackups(app, schema.id);
  await app.sqlConsole.forget(schema.physical);
  await app.engine.dropUserDb(schema.physical);
  await deleteDatabaseFiles(app, schema.id);
};
