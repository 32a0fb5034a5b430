import { ApiError } from "../errors";

type DbError = { errno?: number; code?: string; message?: string } | null;

/**
 * MariaDB errors a statement planned on a schema that has since changed can meet: unknown column (1054) or
 * table (1146), a new NOT NULL column the plan did not fill (1364, 1048), a table altered under an open
 * snapshot (1412). Every name in our SQL comes from the schema, so these mean "the schema moved", not a bug.
 */
const MYSQL_STALE = new Set([1048, 1054, 1146, 1364, 1412]);

const SQLITE_STALE = /^(no such (column|table)|table \S+ has no column named|NOT NULL constraint failed|database schema has changed)/;

export const isStaleSchemaError = (err: unknown): boolean => {
  const e = err as DbError;
  if (!e || typeof e !== "object" || err instanceof ApiError) return false;
  if (typeof e.errno === "number" && typeof e.code === "string" && e.code.startsWith("ER_")) return MYSQL_STALE.has(e.errno);
  return typeof e.code === "string" && e.code.startsWith("SQLITE_") && SQLITE_STALE.test(e.message ?? "");
};

/** 409 after a re-planned request still met a schema change in flight: nothing was written; retry it. */
export const schemaChanged = (table?: string) =>
  new ApiError(
    "schema_changed",
    `The schema of ${table ? `table "${table}"` : "this database"} changed while the request ran; nothing was written. Retry the request.`,
    { extra: { retryable: true } },
  );
