// The write kernel (PostgREST's MainTx): body validation → (pre hooks) → statement → reference and policy
// checks → commit. Every check that can refuse runs inside the transaction, so a refusal leaves nothing.
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { withSerializationRetry } from "../db/serialization-retry";
import { ApiError, type FieldError, validationFailed } from "../errors";
import { existingIdsSql } from "./build-sql";
import type { ParsedWrite } from "./parse-body";
import type { TableIndex } from "./table-index";

/**
 * Runs `fn` in one transaction, always: the statement and its read-back must agree, so a read-back that meets
 * a schema changed under it (or any refusal) rolls the statement back. SQLite takes the write lock at BEGIN
 * (IMMEDIATE): a transaction that read first could not upgrade after another process committed.
 */
export const runWrite = <T>(udb: UserDb, fn: (tx: UserDb) => Promise<T>): Promise<T> => {
  // A lost race (deadlock, Galera certification conflict) runs the whole transaction again (issue 22 owns the kernel's retry).
  if (udb.engine === "mysql") return withSerializationRetry(() => udb.db.transaction().execute((trx) => fn({ ...udb, db: trx, scan: undefined })));
  return udb.db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn({ ...udb, db: conn, scan: undefined });
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
};

/**
 * 422 naming each reference column whose value points at no row of its table. Foreign-key semantics, as in
 * PostgreSQL: existence is checked without the caller's row policies, so `owner_id references users` works for
 * users who cannot read `users`. The implied oracle (a JWT user learns whether id N exists) is documented.
 */
export const checkReferences = async (tx: UserDb, index: TableIndex, writes: ParsedWrite[], prefix: (i: number) => string) => {
  const errors: FieldError[] = [];
  for (const column of index.table.columns) {
    if (column.type !== "reference") continue;
    const wanted = [...new Set(writes.map((w) => w.values[column.name]).filter((v): v is number => typeof v === "number"))];
    if (wanted.length === 0) continue;
    const { rows } = await existingIdsSql(tx, column.references!, wanted).execute(tx.db);
    const found = new Set(rows.map((r) => Number(r.id)));
    writes.forEach((w, i) => {
      const v = w.values[column.name];
      if (typeof v === "number" && !found.has(v)) {
        errors.push({ field: `${prefix(i)}${column.name}`, code: "reference_not_found", message: `no row ${v} in ${column.references}` });
      }
    });
  }
  if (errors.length) throw validationFailed(errors);
};

/** 403 when a row falls outside the policy; thrown inside the transaction, it undoes the statement. */
export const checkPolicy = async (tx: UserDb, index: TableIndex, ids: number[], policy: RawBuilder<unknown>[], action: string) => {
  if (policy.length === 0 || ids.length === 0) return;
  const { rows } = await existingIdsSql(tx, index.table.name, ids, policy).execute(tx.db);
  if (rows.length !== ids.length) {
    const plural = ids.length > 1 ? "s" : "";
    throw new ApiError("forbidden", `The ${action} policy on table "${index.table.name}" does not allow the row${plural} as written; nothing was saved.`);
  }
};
