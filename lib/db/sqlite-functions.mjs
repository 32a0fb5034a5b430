// SQL functions every SQLite connection of a user database needs, the writer's and the reader threads'
// (plain JavaScript so a worker thread loads it without a TypeScript loader).

/** SQLite's lower() folds ASCII only; _ilike with non-ASCII text uses this Unicode-aware one. */
export const addSqlFunctions = (db) => {
  db.function("unicode_lower", { deterministic: true }, (v) => (typeof v === "string" ? v.toLowerCase() : v));
};
