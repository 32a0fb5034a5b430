import bcrypt from "bcrypt";
import type { Kysely } from "kysely";
import type { App } from "../app";
import type { UserDb } from "../db/engine";
import { type FieldError, invalidField, notFound, validationFailed } from "../errors";
import { type CoreResponse, json, noContent } from "../http/core-types";
import { toStoredDatetime } from "../schema/column-types";
import { deleteSql, existingIdsSql, insertSql, selectByIdsSql, updateSql } from "./build-sql";
import { mapDbError } from "./map-db-error";
import { type ParsedWrite, parseRecordBody, type WriteMode } from "./parse-body";
import { findRecordOrThrow } from "./read-records";
import { type TableIndex, toRecord } from "./table-index";

export const MAX_BULK_ROWS = 1000;

/** 422 naming each reference column whose value points at no row of its table. */
const checkReferences = async (udb: UserDb, db: Kysely<any>, index: TableIndex, writes: ParsedWrite[], prefix: (i: number) => string) => {
  const errors: FieldError[] = [];
  for (const column of index.table.columns) {
    if (column.type !== "reference") continue;
    const wanted = [...new Set(writes.map((w) => w.values[column.name]).filter((v): v is number => typeof v === "number"))];
    if (wanted.length === 0) continue;
    const { rows } = await existingIdsSql(udb, column.references!, wanted).execute(db);
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

const parseOrThrow = (index: TableIndex, body: unknown, mode: WriteMode, at = "", current?: Record<string, unknown>) => {
  const { write, errors } = parseRecordBody(index, body, mode, at, current);
  if (errors.length) throw validationFailed(errors);
  return write;
};

/** POST /{table}: one object → 201 with the record; an array (≤1000) → 201 with all records, all or nothing. */
export const createRecords = async (app: App, udb: UserDb, index: TableIndex, body: unknown): Promise<CoreResponse> => {
  const bulk = Array.isArray(body);
  const items = bulk ? (body as unknown[]) : [body];
  if (bulk && items.length === 0) throw invalidField("body", "empty", "the array holds no records");
  if (items.length > MAX_BULK_ROWS) throw invalidField("body", "too_many", `at most ${MAX_BULK_ROWS} records per request`);
  const prefix = (i: number) => (bulk ? `[${i}].` : "");
  const errors: FieldError[] = [];
  const writes = items.map((item, i) => {
    const parsed = parseRecordBody(index, item, "create", prefix(i));
    errors.push(...parsed.errors);
    return parsed.write;
  });
  if (errors.length) throw validationFailed(errors);
  for (const w of writes) await hashPasswords(app, w);
  const stamp = toStoredDatetime(new Date());
  try {
    const rows = await maybeTransaction(udb, index, writes.length, async (trx) => {
      await checkReferences(udb, trx, index, writes, prefix);
      const ids: number[] = [];
      for (const w of writes) {
        const result = await insertSql(udb, index.table.name, { ...w.values, created_at: stamp, updated_at: stamp }).execute(trx);
        ids.push(Number(result.insertId));
      }
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
): Promise<CoreResponse> => {
  const current = await findRecordOrThrow(udb, index, id);
  const write = parseOrThrow(index, body, mode, "", current);
  await hashPasswords(app, write);
  try {
    const row = await maybeTransaction(udb, index, 1, async (trx) => {
      await checkReferences(udb, trx, index, [write], () => "");
      const values = { ...write.values, updated_at: toStoredDatetime(new Date()) };
      await updateSql(udb, index.table.name, id, values).execute(trx);
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
export const deleteRecord = async (udb: UserDb, index: TableIndex, id: number): Promise<CoreResponse> => {
  await findRecordOrThrow(udb, index, id);
  try {
    await deleteSql(udb, index.table.name, id).execute(udb.db);
  } catch (err) {
    mapDbError(err, index, "delete");
  }
  return noContent();
};
