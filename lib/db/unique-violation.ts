/** A duplicate key on either engine (MySQL/MariaDB errno 1062; SQLite's unique or primary-key constraint). */
export const isUniqueViolation = (err: unknown) => {
  const e = err as { errno?: number; code?: string } | null;
  return e?.errno === 1062 || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
};
