import bcrypt from "bcrypt";
import type { Kysely } from "kysely";
import type { App } from "../app";
import type { UserDb } from "../db/engine";
import { ApiError, type FieldError, invalidField, notFound, validationFailed } from "../errors";
import { type CoreResponse, json, noContent } from "../http/core-types";
import { type Access, FULL_ACCESS, predicatesFor, visibleRows } from "../rls/access";
import { toStoredDatetime } from "../schema/column-types";
import { deleteSql, existingIdsSql, insertSql, selectByIdsSql, updateSql } from "./build-sql";
import { mapDbError } from "./map-db-error";
import { type ParsedWrite, parseRecordBody, type WriteMode } from "./parse-body";
import { findRecordOrThrow } from "./read-records";
import { type TableIndex, toRecord } from "./table-index";

export const MAX_BULK_ROWS = 1000;

/**
 * 422 naming each reference column whose value points at no row of its table. A JWT caller only finds rows
 * its select policy shows, so a reference cannot be used to probe for hidden rows.
 */
const checkReferences = async (
  udb: UserDb,
  db: Kysely<any>,
  index: TableIndex,
  writes: ParsedWrite[],
  prefix: (i: number) => string,
  access: Access,
) => {
  const errors: FieldError[] = [];
  for (const column of index.table.columns) {
    if (column.type !== "reference") continue;
    const wanted = [...new Set(writes.map((w) => w.values[column.name]).filter((v): v is number => typeof v === "number"))];
    if (wanted.length === 0) continue;
    const visible = visibleRows(access, column.references!);
    const rows = visible === "none" ? [] : (await existingIdsSql(udb, column.references!, wanted, visible).execute(db)).rows;
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

/**
 * Runs `fn` in a transaction when the write has several statements that must agree (bulk rows, reference
 * checks); a single-row write without references is one statement and skips BEGIN/COMMIT.
 */
const maybeTransaction = <T>(udb: UserDb, index: TableIndex, rows: number, fn: (db: Kysely<any>) => Promise<T>) =>
  rows > 1 || index.table.columns.some((c) => c.type === "reference") ? udb.db.transaction().execute(fn) : fn(udb.db);

const hashPasswords = async (app: App, write: ParsedWrite) => {
  for (const name of write.passwords) write.values[name] = await bcrypt.hash(String(write.values[name]), app.config.bcryptCost);
};

/** 403 (and, thrown inside the transaction, nothing written) when a written row falls outside the policy. */
const checkPolicy = async (udb: UserDb, db: Kysely<any>, index: TableIndex, ids: number[], policy: ReturnType<typeof predicatesFor>, action: string) => {
  if (policy.length === 0 || ids.length === 0) return;
  const { rows } = await existingIdsSql(udb, index.table.name, ids, policy).execute(db);
  if (rows.length !== ids.length) {
    throw new ApiError("forbidden", `The ${action} policy on table "${index.table.name}" does not allow the row${ids.length > 1 ? "s" : ""} as written; nothing was saved.`);
  }
};

const parseOrThrow = (index: TableIndex, body: unknown, mode: WriteMode, at = "", current?: Record<string, unknown>) => {
  const { write, errors } = parseRecordBody(index, body, mode, at, current);
  if (errors.length) throw validationFailed(errors);
  return write;
};

/** POST /{table}: one object → 201 with the record; an array (≤1000) → 201 with all records, all or nothing. */
export const createRecords = async (
  app: App,
  udb: UserDb,
  index: TableIndex,
  body: unknown,
  access: Access = FULL_ACCESS,
  authId?: number,
): Promise<CoreResponse> => {
  const policy = predicatesFor(access, index.table.name, "insert");
  const bulk = Array.isArray(body);
  const items = bulk ? (body as unknown[]) : [body];
  if (bulk && items.length === 0) throw invalidField("body", "empty", "the array holds no records");
  if (items.length > MAX_BULK_ROWS) throw invalidField("body", "too_many", `at most ${MAX_BULK_ROWS} records per request`);
  const prefix = (i: number) => (bulk ? `[${i}].` : "");
  const errors: FieldError[] = [];
  const writes = items.map((item, i) => {
    const parsed = parseRecordBody(index, item, "create", prefix(i), undefined, authId);
    errors.push(...parsed.errors);
    return parsed.write;
  });
  if (errors.length) throw validationFailed(errors);
  for (const w of writes) await hashPasswords(app, w);
  const stamp = toStoredDatetime(new Date());
  try {
    const rows = await maybeTransaction(udb, index, writes.length, async (trx) => {
      await checkReferences(udb, trx, index, writes, prefix, access);
      const ids: number[] = [];
      for (const w of writes) {
        const result = await insertSql(udb, index.table.name, { ...w.values, created_at: stamp, updated_at: stamp }).execute(trx);
        ids.push(Number(result.insertId));
      }
      await checkPolicy(udb, trx, index, ids, policy, "insert");
      const { rows } = await selectByIdsSql(udb, index.table.name, index.all, ids).execute(trx);
      return rows as Record<string, unknown>[];
    });
    const records = rows.map((r) => toRecord(index, r));
    return json(201, bulk ? records : records[0]);
  } catch (err) {
    return mapDbError(err, index, "write");
  }
};

/** PUT (replace) or PATCH (update) /{table}/{id} → 200 with the updated record. */
export const writeRecord = async (
  app: App,
  udb: UserDb,
  index: TableIndex,
  id: number,
  body: unknown,
  mode: "replace" | "update",
  access: Access = FULL_ACCESS,
): Promise<CoreResponse> => {
  const policy = predicatesFor(access, index.table.name, "update");
  const current = await findRecordOrThrow(udb, index, id, predicatesFor(access, index.table.name, "select"));
  await checkPolicy(udb, udb.db, index, [id], policy, "update");
  const write = parseOrThrow(index, body, mode, "", current);
  await hashPasswords(app, write);
  try {
    const row = await maybeTransaction(udb, index, 1, async (trx) => {
      await checkReferences(udb, trx, index, [write], () => "", access);
      const values = { ...write.values, updated_at: toStoredDatetime(new Date()) };
      // The policy is in the UPDATE's WHERE too, so a row changed since the check above is not touched.
      const result = await updateSql(udb, index.table.name, id, values, policy).execute(trx);
      if (policy.length && Number(result.numAffectedRows ?? 0) === 0) throw notFound(`No record with id ${id} in ${index.table.name}.`);
      await checkPolicy(udb, trx, index, [id], policy, "update");
      const { rows } = await selectByIdsSql(udb, index.table.name, index.all, [id]).execute(trx);
      return rows[0] as Record<string, unknown> | undefined;
    });
    if (!row) throw notFound(`No record with id ${id} in ${index.table.name}.`);
    return json(200, toRecord(index, row));
  } catch (err) {
    return mapDbError(err, index, "write");
  }
};

/** DELETE /{table}/{id} → 204; 404 when absent; 409 when other rows reference it. */
export const deleteRecord = async (udb: UserDb, index: TableIndex, id: number, access: Access = FULL_ACCESS): Promise<CoreResponse> => {
  const policy = predicatesFor(access, index.table.name, "delete");
  await findRecordOrThrow(udb, index, id, predicatesFor(access, index.table.name, "select"));
  await checkPolicy(udb, udb.db, index, [id], policy, "delete");
  try {
    await deleteSql(udb, index.table.name, id, policy).execute(udb.db);
  } catch (err) {
    mapDbError(err, index, "delete");
  }
  return noContent();
};
