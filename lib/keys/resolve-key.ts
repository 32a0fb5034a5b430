import type { App, KeyRecord } from "../app";
import { hashSecretKey } from "./key-crypto";

/** The live (not revoked) key record for a presented secret key, cached per process. */
// The cache is keyed by the presented secret itself, so a cached lookup costs no hashing.
export const resolveKey = async (app: App, presented: string): Promise<KeyRecord | null> => {
  const cached = app.keys.get(presented);
  if (cached !== undefined) return cached;
  const hash = hashSecretKey(presented);
  const row = await app.engine.meta
    .selectFrom("api_keys")
    .select(["id", "account_id", "database_id"])
    .where("key_hash", "=", hash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  const record = row ? { id: row.id, accountId: row.account_id, databaseId: row.database_id } : null;
  if (app.keys.size > 10_000) app.keys.clear();
  app.keys.set(presented, record);
  return record;
};
