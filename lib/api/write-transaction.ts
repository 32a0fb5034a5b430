// The write kernel (PostgREST's MainTx): body validation → (pre hooks) → statement → reference and policy
// checks → commit. Every check that can refuse runs inside the transaction, so a refusal leaves nothing.
import type { RawBuilder } from "kysely";
import type { UserDb } from "../db/engine";
import { ApiError, type FieldError, validationFailed } from "../errors";
import { existingIdsSql } from "./build-sql";
import type { ParsedWrite } from "./parse-body";
import type { TableIndex } from "./table-index";

/** What decides whether a write needs a transaction: its rows, its policy, and whether it checks references. */
export type WriteShape = { rows: number; policy: RawBuilder<unknown>[]; references: boolean };

export const hasReferences = (index: TableIndex) => index.table.columns.some((c) => c.type === "reference");

/**
 * A write needs BEGIN/COMMIT when it has several statements that must agree: several rows, a reference
 * check, or a policy checked after the statement. A single statement with none of these skips it (the fast path).
 */
export const needsTransaction = ({ rows, policy, references }: WriteShape) => rows > 1 || policy.length > 0 || references;

/**
 * Runs `fn` on a transaction-bound handle when the write needs one, else on the plain handle. Either way its
 * reads (read-back, policy checks) stay on the writing connection, never on a reader thread.
 */
export const runWrite = <T>(udb: UserDb, shape: WriteShape, fn: (tx: UserDb) => Promise<T>): Promise<T> =>
  needsTransaction(shape) ? udb.db.transaction().execute((trx) => fn({ ...udb, db: trx, scan: undefined })) : fn({ ...udb, scan: undefined });

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
