// The storage quota: the bytes an account's databases hold in the file store, counted from the store itself
// (every object under each database's prefix, orphans included until swept), and the 402 a write gets
// before it stores anything that would take the account past its plan's `storage_bytes`.
import type { App } from "../../app-type";
import { ApiError } from "../../errors";
import type { LoadedDatabase } from "../../meta/schema-cache";
import { effectivePlan } from "../../plans/effective-plan";
import { databasePrefix, fileStoreOf } from "./file-scope";

/** Bytes under one database's prefix. */
export const databaseBytes = async (app: App, databaseId: number) => {
  let total = 0;
  for await (const object of fileStoreOf(app).list(databasePrefix(databaseId))) total += object.size;
  return total;
};

/** Bytes every database of the account holds. */
export const storageUsed = async (app: App, accountId: number) => {
  const rows = await app.engine.meta.selectFrom("databases").select("id").where("owner_id", "=", accountId).execute();
  let total = 0;
  for (const row of rows) total += await databaseBytes(app, row.id);
  return total;
};

/** 402 `quota_exceeded` (kind `storage_bytes`) when `adding` more bytes would pass the owner's plan. */
export const checkStorageQuota = async (app: App, database: LoadedDatabase, adding: number) => {
  const ownerId = database.schema.ownerId;
  const plan = await effectivePlan(app.engine.meta, ownerId);
  const limit = plan.storage_bytes;
  if (limit === null) return;
  const used = await storageUsed(app, ownerId);
  if (used + adding <= limit && used < limit) return;
  throw new ApiError("quota_exceeded", `Your ${plan.name} plan allows ${limit} bytes of files and this account holds ${used}; delete files or ask the operator of this install for a larger plan.`, {
    quota: { kind: "storage_bytes", limit, used, credits: 0 },
  });
};
