// Upsert through the write kernel: in one transaction each row is looked up by its `_on_conflict` value WITH A
// LOCK; a row found is merged by the kernel's update stage (update hooks and policies, only the given columns
// change), any other is created by its create stage (insert hooks and policies). Rows run in body order, so a
// later row of the same body merges into one an earlier row created.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { conflict, invalidField, validationFailed } from "../../errors";
import { type CoreResponse, json } from "../../http/core-types";
import { predicatesFor } from "../../rls/access";
import { TYPE_SPECS } from "../../schema/column-types";
import type { ColumnDef } from "../../schema/types";
import { columnList, existingIdsSql } from "../build-sql";
import type { DataRequest } from "../data-request";
import { parseRecordBody } from "../parse-body";
import { type TableIndex, toRecord } from "../table-index";
import { hashPasswords } from "./passwords";
import { parseOnConflict } from "./parse-upsert";
import { type Change, inKernelTransaction, MAX_BULK_ROWS, prefixFor, STAGES } from "./run-write";

type Row = Record<string, unknown>;

/** One row's outcome: 201 created, 200 merged, with the record as stored. */
export type UpsertOutcome = { status: 201 | 200; record: Row };

/** The stored row holding `value` in `column`, locked to COMMIT (FOR UPDATE on MySQL; SQLite's BEGIN IMMEDIATE holds the file). */
const lockConflicting = async (tx: UserDb, index: TableIndex, column: ColumnDef, value: unknown) => {
  const lock = sql.raw(tx.engine === "mysql" ? " FOR UPDATE" : "");
  const { rows } = await sql`SELECT ${columnList(index.all)} FROM ${tx.table(index.table.name)} WHERE ${sql.id(column.name)} = ${value}${lock}`.execute(tx.db);
  return rows[0] ? toRecord(index, rows[0] as Row) : undefined;
};

/** The row's conflict value as stored, or undefined when it has none (absent, null, or not of the column's type: the create reports that). */
const conflictValue = (column: ColumnDef, item: unknown) => {
  const raw = typeof item === "object" && item !== null ? (item as Row)[column.name] : undefined;
  if (raw === undefined || raw === null) return undefined;
  const check = TYPE_SPECS[column.type].fromJson(raw, column);
  return check.ok ? check.value : undefined;
};

const items = (body: unknown): unknown[] => {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw invalidField("body", "empty", "the array holds no records");
  if (list.length > MAX_BULK_ROWS) throw invalidField("body", "too_many", `at most ${MAX_BULK_ROWS} records per request`);
  return list;
};

/** Upserts every row in one kernel transaction; a refusal of any row rolls back all of them. */
const upsertRows = async (request: DataRequest, column: ColumnDef): Promise<UpsertOutcome[]> => {
  const { index, access } = request;
  const rows = items(request.body);
  const prefix = prefixFor(Array.isArray(request.body));
  // Hash-shaped passwords are left for the stage that knows whether the row is stored (see hashPasswords).
  const hashes = await hashPasswords(request.app, index, rows, true);
  return inKernelTransaction(request, "write", async (tx) => {
    const outcomes: UpsertOutcome[] = [];
    const changes: Change[] = [];
    for (const [i, item] of rows.entries()) {
      const value = conflictValue(column, item);
      const stored = value === undefined ? undefined : await lockConflicting(tx, index, column, value);
      const prepared = { hashes: [hashes[i]], creates: [], prefix: () => prefix(i) };
      if (stored) {
        const { rows: visible } = await existingIdsSql(tx, index.table.name, [Number(stored.id)], predicatesFor(access, index.table.name, "select")).execute(tx.db);
        // A row the caller cannot see can be neither merged nor created: the answer a plain insert would give.
        if (visible.length === 0) throw conflict(`Another record already has this "${column.name}".`, [{ field: `${prefix(i)}${column.name}`, code: "duplicate", message: `"${column.name}" must be unique` }]);
        const outcome = await STAGES.update(tx, { ...request, action: "update", id: Number(stored.id), body: item }, prepared);
        outcomes.push({ status: 200, record: outcome.records[0] });
        changes.push({ action: "update", ...outcome });
        continue;
      }
      if (column.system && value !== undefined) throw invalidField(`${prefix(i)}${column.name}`, "not_found", `no record with ${column.name} ${value} to merge; leave "${column.name}" out to create one`);
      const parsed = parseRecordBody(index, item, "create", prefix(i), undefined, request.authId);
      if (parsed.errors.length) throw validationFailed(parsed.errors);
      const outcome = await STAGES.create(tx, { ...request, action: "create", body: item }, { ...prepared, creates: [parsed.write] });
      outcomes.push({ status: 201, record: outcome.records[0] });
      changes.push({ action: "insert", ...outcome });
    }
    return { result: outcomes, changes };
  });
};

/**
 * POST /{table}?_on_conflict=col with `Prefer: resolution=merge-duplicates`, or POST /{table}/_upsert?_on_conflict=col.
 * One object: 201 created or 200 merged, with the record. An array (always on `/_upsert`): 201 if any row was
 * created (200 otherwise), with `[{status, record}]` in body order.
 */
export const upsertRecords = async (request: DataRequest): Promise<CoreResponse> => {
  const column = parseOnConflict(request.query, request.index);
  const outcomes = await upsertRows(request, column);
  const headers = { "preference-applied": "resolution=merge-duplicates" };
  if (!request.many && !Array.isArray(request.body)) return json(outcomes[0].status, outcomes[0].record, headers);
  return json(outcomes.some((o) => o.status === 201) ? 201 : 200, outcomes, headers);
};
