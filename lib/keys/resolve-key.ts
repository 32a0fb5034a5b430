import type { App, KeyRecord } from "../app-type";
import { ApiError } from "../errors";
import { hashSecretKey } from "./key-crypto";

/** The name of the key the dashboard makes for its data browser and docs (one per account, for every database). */
export const DASHBOARD_KEY_NAME = "Dashboard";

/** A write through the dashboard's key is the member's own (record history's actor "member"), not an app's. */
export const isDashboardKey = (name: string, databaseId: number | null) => name === DASHBOARD_KEY_NAME && databaseId === null;

/** Live keys remembered per process (least recently used go first). */
export const MAX_CACHED_KEYS = 10_000;
/** Unknown keys remembered per process, so a client retrying a revoked key costs no lookup each time. */
export const MAX_CACHED_UNKNOWN_KEYS = 1_000;

export const ACCOUNT_DISABLED = "The account this key belongs to is disabled; ask the operator of this install to enable it again.";

/** The live (not revoked) key record for a presented secret key, with whether its account is disabled; cached per process. */
// The cache is keyed by the presented secret itself, so a cached lookup costs no hashing.
export const resolveKey = async (app: App, presented: string): Promise<KeyRecord | null> => {
  const cached = app.keys.get(presented);
  if (cached !== undefined) return cached;
  if (app.unknownKeys.get(presented)) return null;
  const hash = hashSecretKey(presented);
  const row = await app.engine.meta
    .selectFrom("api_keys")
    .innerJoin("accounts", "accounts.id", "api_keys.account_id")
    .select(["api_keys.id", "api_keys.name", "api_keys.account_id", "api_keys.database_id", "accounts.disabled_at"])
    .where("api_keys.key_hash", "=", hash)
    .where("api_keys.revoked_at", "is", null)
    .executeTakeFirst();
  const record = row
    ? { id: row.id, accountId: row.account_id, databaseId: row.database_id, disabled: row.disabled_at !== null, dashboard: isDashboardKey(row.name, row.database_id) }
    : null;
  if (record) app.keys.set(presented, record);
  else app.unknownKeys.set(presented, true);
  return record;
};

/** A key whose account the operator disabled: refused on both APIs (403, the key itself is valid). */
export const refuseDisabled = (key: KeyRecord) => {
  if (key.disabled) throw new ApiError("forbidden", ACCOUNT_DISABLED);
};
