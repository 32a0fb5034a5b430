// The checks that run after the statement, inside the transaction: a refusal rolls the statement back.
import type { RawBuilder } from "kysely";
import type { UserDb } from "../../db/engine";
import { ApiError, type FieldError, validationFailed } from "../../errors";
import { existingIdsSql } from "../build-sql";
import type { ParsedWrite } from "../parse-body";
import type { TableIndex } from "../table-index";
import { isReference } from "../../schema/type-traits";

/**
 * 422 naming each reference column whose value points at no row of its table. Foreign-key semantics, as in
 * PostgreSQL: existence is checked without the caller's row policies, so `owner_id references users` works for
 * users who cannot read `users`. The implied oracle (a JWT user learns whether id N exists) is documented.
 */
export const checkReferences = async (tx: UserDb, index: TableIndex, writes: ParsedWrite[], prefix: (i: number) => string) => {
  const errors: FieldError[] = [];
  for (const column of index.table.columns) {
    if (!isReference(column)) continue;
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

/** 403 when a row falls outside the policy (the stored row before an update or delete, the written row after). */
export const checkPolicy = async (tx: UserDb, index: TableIndex, ids: number[], policy: RawBuilder<unknown>[], action: string) => {
  if (policy.length === 0 || ids.length === 0) return;
  const { rows } = await existingIdsSql(tx, index.table.name, ids, policy).execute(tx.db);
  if (rows.length !== ids.length) {
    const plural = ids.length > 1 ? "s" : "";
    throw new ApiError("forbidden", `The ${action} policy on table "${index.table.name}" does not allow the row${plural} as written; nothing was saved.`);
  }
};
