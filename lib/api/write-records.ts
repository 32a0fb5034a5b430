import bcrypt from "bcrypt";
import type { App } from "../app";
import type { UserDb } from "../db/engine";
import { type FieldError, invalidField, notFound, validationFailed } from "../errors";
import { type CoreResponse, json, noContent } from "../http/core-types";
import { type Access, FULL_ACCESS, predicatesFor } from "../rls/access";
import { toStoredDatetime } from "../schema/column-types";
import { deleteSql, insertSql, selectByIdsSql, updateSql } from "./build-sql";
import { mapDbError } from "./map-db-error";
import { type ParsedWrite, parseRecordBody, type WriteMode } from "./parse-body";
import { findRecordOrThrow } from "./read-records";
import { type TableIndex, toRecord } from "./table-index";
import { checkPolicy, checkReferences, runWrite } from "./write-transaction";
import { type CompiledHooks, type HookAction, type HookInput, hasSteps, hookError, runHooks } from "../hooks/hooks";
import { logHookRun } from "../hooks/hook-logs";
import { lockRowsForEvent, recordChanges } from "../events/outbox/record-change";

export const MAX_BULK_ROWS = 1000;

const hashPasswords = async (app: App, write: ParsedWrite) => {
  for (const name of write.passwords) write.values[name] = await bcrypt.hash(String(write.values[name]), app.config.bcryptCost);
};

const parseOrThrow = (index: TableIndex, body: unknown, mode: WriteMode, current?: Record<string, unknown>) => {
  const { write, errors } = parseRecordBody(index, body, mode, "", current);
  if (errors.length) throw validationFailed(errors);
  return write;
};

export type InsertOptions = {
  /** Field prefix per row in errors (`[3].` for bulk bodies). */
  prefix?: (i: number) => string;
  access?: Access;
  /** The table's pre hooks, when it has any for this action. */
  hook?: HookCall;
};

/** A table's pre hooks and who is writing, for one write. */
export type HookCall = { app: App; databaseId: number; hooks: CompiledHooks; auth: HookInput["auth"] };

/**
 * Runs the action's steps for one row before anything is written: a refusal or failure is logged and thrown
 * (nothing written); set values are validated like client values and merged into the write.
 */
const applyHook = (hook: HookCall | undefined, index: TableIndex, action: HookAction, write: ParsedWrite | undefined, input: HookInput, prefix = "", current?: Record<string, unknown>) => {
  if (!hook || !hasSteps(hook.hooks, action)) return;
  const run = runHooks(hook.hooks, action, input);
  logHookRun(hook.app, hook.databaseId, index.table, action, input.new, run);
  if (run.status !== "ok") throw hookError(index.table.name, action, run);
  if (!write || Object.keys(run.sets).length === 0) return;
  const { write: checked, errors } = parseRecordBody(index, run.sets, "update", prefix, current);
  if (errors.length) throw validationFailed(errors.map((e) => ({ ...e, message: `${e.message} (set by the ${action} hook)` })));
  Object.assign(write.values, checked.values);
};

/**
 * Inserts parsed rows in one write transaction: references, statements, the insert policy, read-back.
 * The data API's POST and /auth/signup both write through here. Returns the stored records in order.
 */
export const insertRecords = async (app: App, udb: UserDb, index: TableIndex, writes: ParsedWrite[], options: InsertOptions = {}) => {
  const { prefix = () => "", access = FULL_ACCESS, hook } = options;
  const policy = predicatesFor(access, index.table.name, "insert");
  writes.forEach((w, i) => applyHook(hook, index, "insert", w, { new: { ...w.values }, auth: hook?.auth ?? { kind: "key", id: null } }, prefix(i)));
  for (const w of writes) await hashPasswords(app, w);
  const stamp = toStoredDatetime(new Date());
  try {
    const rows = await runWrite(udb, async (tx) => {
      await checkReferences(tx, index, writes, prefix);
      const ids: number[] = [];
      for (const w of writes) {
        const result = await insertSql(tx, index.table.name, { ...w.values, created_at: stamp, updated_at: stamp }).execute(tx.db);
        ids.push(Number(result.insertId));
      }
      await checkPolicy(tx, index, ids, policy, "insert");
      return recordChanges(tx, index, "insert", (await selectByIdsSql(tx, index.table.name, index.all, ids).execute(tx.db)).rows as Record<string, unknown>[]);
    });
    return rows.map((r) => toRecord(index, r));
  } catch (err) {
    return mapDbError(err, index, "write");
  }
};

/** POST /{table}: one object → 201 with the record; an array (≤1000) → 201 with all records, all or nothing. */
export const createRecords = async (
  app: App,
  udb: UserDb,
  index: TableIndex,
  body: unknown,
  access: Access = FULL_ACCESS,
  authId?: number,
  hook?: HookCall,
): Promise<CoreResponse> => {
  predicatesFor(access, index.table.name, "insert"); // a closed table is 403 before the body is judged
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
  const records = await insertRecords(app, udb, index, writes, { prefix, access, hook });
  return json(201, bulk ? records : records[0]);
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
  hook?: HookCall,
): Promise<CoreResponse> => {
  const policy = predicatesFor(access, index.table.name, "update");
  const visible = predicatesFor(access, index.table.name, "select");
  // Validation and hashing happen before the transaction: bcrypt must not hold the database's write lock.
  const current = await findRecordOrThrow(udb, index, id, visible);
  await checkPolicy(udb, index, [id], policy, "update");
  const write = parseOrThrow(index, body, mode, current);
  applyHook(hook, index, "update", write, { new: { ...current, ...write.values }, old: current, auth: hook?.auth ?? { kind: "key", id: null } }, "", current);
  await hashPasswords(app, write);
  try {
    const row = await runWrite(udb, async (tx) => {
      await checkReferences(tx, index, [write], () => "");
      const before = await lockRowsForEvent(tx, index, [id]);
      const values = { ...write.values, updated_at: toStoredDatetime(new Date()) };
      // The policy is in the UPDATE's WHERE too, so a row changed since the check above is not touched.
      const result = await updateSql(tx, index.table.name, id, values, policy).execute(tx.db);
      if (policy.length && Number(result.numAffectedRows ?? 0) === 0) throw notFound(`No record with id ${id} in ${index.table.name}.`);
      await checkPolicy(tx, index, [id], policy, "update");
      const { rows } = await selectByIdsSql(tx, index.table.name, index.all, [id]).execute(tx.db);
      return (await recordChanges(tx, index, "update", rows as Record<string, unknown>[], before))[0] as Record<string, unknown> | undefined;
    });
    if (!row) throw notFound(`No record with id ${id} in ${index.table.name}.`);
    return json(200, toRecord(index, row));
  } catch (err) {
    return mapDbError(err, index, "write");
  }
};

/** DELETE /{table}/{id} → 204; 404 when absent (or hidden); 403 when the delete policy refuses; 409 when referenced. */
export const deleteRecord = async (udb: UserDb, index: TableIndex, id: number, access: Access = FULL_ACCESS, hook?: HookCall): Promise<CoreResponse> => {
  const policy = predicatesFor(access, index.table.name, "delete");
  const visible = predicatesFor(access, index.table.name, "select");
  try {
    await runWrite(udb, async (tx) => {
      const stored = await findRecordOrThrow(tx, index, id, visible);
      applyHook(hook, index, "delete", undefined, { new: stored, old: stored, auth: hook?.auth ?? { kind: "key", id: null } });
      await checkPolicy(tx, index, [id], policy, "delete");
      const before = await lockRowsForEvent(tx, index, [id]);
      const result = await deleteSql(tx, index.table.name, id, policy).execute(tx.db);
      if (Number(result.numAffectedRows ?? 0) === 0) throw notFound(`No record with id ${id} in ${index.table.name}.`);
      await recordChanges(tx, index, "delete", [], before);
    });
  } catch (err) {
    mapDbError(err, index, "delete");
  }
  return noContent();
};
