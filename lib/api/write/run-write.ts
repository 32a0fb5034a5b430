// The write kernel (PostgREST's MainTx), the one path of every data-API write, single rows and bulk alike:
// plan (closed table 403, body shape) → hash passwords → BEGIN → read the current row WITH A LOCK → validate →
// pre hooks on that row → statement → reference and policy checks → the stored rows (RETURNING where the engine
// has it, else a read-back, or for a MySQL update of plain values the locked row with them) → COMMIT. A refusal
// at any stage rolls back; a lost race (deadlock, lock timeout, certification conflict) re-runs the whole transaction.
import { type RawBuilder, sql } from "kysely";
import type { App } from "../../app-type";
import type { UserDb } from "../../db/engine";
import { invalidField, validationFailed } from "../../errors";
import { type Access, predicatesFor } from "../../rls/access";
import { STORED_AS_WRITTEN, toStoredDatetime, TYPE_SPECS } from "../../schema/column-types";
import { columnList, compiledByShape, deleteSql, insertSql, selectByIdsSql, updateSql } from "../build-sql";
import { mapDbError } from "../map-db-error";
import { runStatement } from "../../db/scan-rows";
import { type ParsedWrite, parseRecordBody } from "../parse-body";
import { findRecordOrThrow } from "../read-records";
import { type TableIndex, toRecord } from "../table-index";
import { checkPolicy, checkReferences } from "./checks";
import { applyHook, type HookCall } from "./hook-stage";
import { newSlice } from "../../hooks/run-hooks";
import { type Hashes, hashPasswords, useHashes } from "./passwords";
import { retriedWriteTransaction } from "./transaction";
import { holdsBigText, nextTurn } from "../../limits/big-lane";
import { type Actor, type ChangeAction, recordChanges } from "../../events/outbox/record-change";
import { type FileScope, releaseReplacedFiles } from "../files/file-scope";
import { addFileUrls } from "../files/file-urls";
import { moveFileUsage } from "../files/file-usage-delta";
import { logger } from "../../ops/logger";

export const MAX_BULK_ROWS = 1000;

export type WriteAction = "create" | "replace" | "update" | "delete";

/** One write as the data API (and sign-up, and the AI builder's seed rows) asks for it. */
export type WriteRequest = {
  app: App;
  udb: UserDb;
  index: TableIndex;
  access: Access;
  action: WriteAction;
  /** The row of a replace, update or delete. */
  id?: number;
  /** One record, or (create only) an array of up to MAX_BULK_ROWS. */
  body?: unknown;
  /** The table's pre hooks, when it has any. */
  hook?: HookCall;
  /** The JWT user writing, whose id fills owner columns (default auth.id). */
  authId?: number;
  /** Where the table's files live, when it has file columns: files the rows no longer name go after COMMIT. */
  files?: FileScope;
  /** Who writes, kept with the change events for record history (default the system). */
  actor?: Actor;
  /** A create that brings a deleted row back (record history's restore): its id and first creation time. */
  revive?: { id: number; createdAt: string };
  /** Password hashes the caller already computed, per body (sign-up hashes before it knows whether the login is taken). */
  hashes?: Hashes;
};

type Record_ = Record<string, unknown>;

/** What one transaction did: the rows as read back (create, update) and the stored rows it replaced (update, delete). */
type Outcome = { records: Record_[]; old: Record_[] };

/** What is settled before BEGIN: password hashes, and a create's validated rows (copied per attempt: hooks add to them). */
type Prepared = { hashes: Hashes; creates: ParsedWrite[]; prefix: (i: number) => string };

type Stage = (tx: UserDb, request: WriteRequest, prepared: Prepared) => Promise<Outcome>;

export const prefixFor = (bulk: boolean) => (i: number) => (bulk ? `[${i}].` : "");

/**
 * A write of `values` (plus `RETURNING` the record's columns), compiled once per table, kind and column set and
 * bound to the values in order, then to `after` (an update's id).
 */
const byColumns = (tx: UserDb, index: TableIndex, kind: string, values: Record_, build: () => RawBuilder<unknown>, returning: boolean, after: unknown[] = []) => {
  const names = Object.keys(values);
  const shape = `${kind}${returning ? "-returning" : ""}:${names.join("\n")}`;
  const statement = () => (returning ? sql`${build()} RETURNING ${columnList(index.all)}` : build());
  return compiledByShape(tx, index, shape, statement, [...names.map((n) => values[n]), ...after]);
};

/** The rows as stored; one row's statement is kept compiled (bulk lengths vary, and would crowd out the reads' shapes). */
const readBack = async (tx: UserDb, index: TableIndex, ids: number[]) => {
  const select = () => selectByIdsSql(tx, index.table.name, index.all, ids);
  const statement = ids.length === 1 ? compiledByShape(tx, index, "read-back", select, ids) : select().compile(tx.db);
  return (await runStatement<Record_>(tx, statement)).rows.map((r) => toRecord(index, r));
};

const policy = (request: WriteRequest, action: "insert" | "update" | "delete" | "select"): RawBuilder<unknown>[] =>
  predicatesFor(request.access, request.index.table.name, action);

/** The rows of a create, validated (every problem of every row in one 422) before anything is hashed or locked. */
const parseCreate = (request: WriteRequest) => {
  const bulk = Array.isArray(request.body);
  const items = bulk ? (request.body as unknown[]) : [request.body];
  if (bulk && items.length === 0) throw invalidField("body", "empty", "the array holds no records");
  if (items.length > MAX_BULK_ROWS) throw invalidField("body", "too_many", `at most ${MAX_BULK_ROWS} records per request`);
  const prefix = prefixFor(bulk);
  const parsed = items.map((item, i) => parseRecordBody(request.index, item, "create", prefix(i), undefined, request.authId));
  const errors = parsed.flatMap((p) => p.errors);
  if (errors.length) throw validationFailed(errors);
  return { writes: parsed.map((p) => p.write), prefix };
};

const create: Stage = async (tx, request, { hashes, creates, prefix }) => {
  const { index, hook } = request;
  const writes = creates.map((w) => ({ values: { ...w.values }, passwords: w.passwords }));
  const slice = newSlice();
  for (const [i, w] of writes.entries()) {
    await useHashes(request.app, w, hashes[i]);
    await applyHook(hook, index, "insert", w, { new: { ...w.values } }, prefix(i), undefined, slice);
  }
  await checkReferences(tx, index, writes, prefix);
  const stamp = toStoredDatetime(new Date());
  const inserted: Record_[] = [];
  const ids: number[] = [];
  const { revive } = request;
  for (const w of writes) {
    const values: Record_ = { ...(revive && { id: revive.id }), ...w.values, created_at: revive?.createdAt ?? stamp, updated_at: stamp };
    // Where the engine has it, the stored row comes back from the INSERT itself: no read-back round trip.
    const statement = byColumns(tx, index, "insert", values, () => insertSql(tx, index.table.name, values), tx.returning);
    const result = await runStatement<Record_>(tx, statement);
    if (tx.returning) {
      inserted.push(toRecord(index, result.rows[0]));
      ids.push(Number(result.rows[0].id));
    } else ids.push(revive?.id ?? Number(result.insertId));
  }
  await checkPolicy(tx, index, ids, policy(request, "insert"), "insert");
  return { records: tx.returning ? inserted : await readBack(tx, index, ids), old: [] };
};

/** The stored row, locked until COMMIT (FOR UPDATE; SQLite's BEGIN IMMEDIATE already holds the write lock); 404 if hidden. */
const lockRow = (tx: UserDb, request: WriteRequest) => findRecordOrThrow(tx, request.index, request.id!, policy(request, "select"), true);

const update: Stage = async (tx, request, { hashes, prefix }) => {
  const { index, hook, id } = request;
  const rules = policy(request, "update");
  const old = await lockRow(tx, request);
  await checkPolicy(tx, index, [id!], rules, "update");
  const { write, errors } = parseRecordBody(index, request.body, request.action as "replace" | "update", prefix(0), old);
  if (errors.length) throw validationFailed(errors);
  if (holdsBigText(write.values)) await nextTurn();
  await useHashes(request.app, write, hashes[0]);
  // Only a hook reads the whole row: spreading it would parse a json value the write did not touch.
  if (hook) await applyHook(hook, index, "update", write, { new: { ...old, ...write.values }, old }, prefix(0), old);
  await checkReferences(tx, index, [write], prefix);
  const values: Record_ = { ...write.values, updated_at: toStoredDatetime(new Date()) };
  // SQLite answers with the row from the UPDATE itself. MySQL has no UPDATE … RETURNING; the row is locked, so
  // when every value written reads back as bound, the stored row is the locked one with those values.
  const returning = tx.engine === "sqlite";
  const statement = byColumns(tx, index, "update", values, () => updateSql(tx, index.table.name, id!, values), returning, [id]);
  const { rows: returned } = await runStatement<Record_>(tx, statement);
  await checkPolicy(tx, index, [id!], rules, "update");
  const record = returning ? toRecord(index, returned[0]) : storedAsWritten(index, values) ? withValues(index, old, values) : undefined;
  return { records: record ? [record] : await readBack(tx, index, [id!]), old: [old] };
};

const storedAsWritten = (index: TableIndex, values: Record_) => Object.keys(values).every((name) => STORED_AS_WRITTEN.has(index.byName.get(name)!.type));

/** `old` with the written columns replaced by their values as a read would answer them. */
const withValues = (index: TableIndex, old: Record_, values: Record_) => {
  const record = { ...old };
  for (const [name, value] of Object.entries(values)) {
    const column = index.byName.get(name)!;
    record[name] = TYPE_SPECS[column.type].toJson(value);
  }
  return record;
};

const remove: Stage = async (tx, request) => {
  const { index, hook, id } = request;
  const old = await lockRow(tx, request);
  await applyHook(hook, index, "delete", undefined, { new: old, old });
  await checkPolicy(tx, index, [id!], policy(request, "delete"), "delete");
  await deleteSql(tx, index.table.name, id!).execute(tx.db);
  return { records: [], old: [old] };
};

/** The kernel's stages, for writes made of several of them in one transaction (upsert, changes by filter). */
export const STAGES: Record<WriteAction, Stage> = { create, replace: update, update, delete: remove };

const EVENT_ACTION: Record<WriteAction, ChangeAction> = { create: "insert", replace: "update", update: "update", delete: "delete" };

/** Runs one write and returns the records as stored (none for a delete). */
export const runWrite = async (request: WriteRequest): Promise<Record_[]> => {
  const { action, index } = request;
  // A table closed to the caller for this action is 403 before the body is judged.
  policy(request, action === "create" ? "insert" : action === "delete" ? "delete" : "update");
  const { writes: creates, prefix } = action === "create" ? parseCreate(request) : { writes: [], prefix: prefixFor(false) };
  const bodies = action === "delete" ? [] : Array.isArray(request.body) ? request.body : [request.body];
  const prepared = { hashes: request.hashes ?? (await hashPasswords(request.app, index, bodies, action !== "create")), creates, prefix };
  return inKernelTransaction(request, action === "delete" ? "delete" : "write", async (tx) => {
    const outcome = await STAGES[action](tx, request, prepared);
    return { result: outcome.records, changes: [{ action: EVENT_ACTION[action], ...outcome }] };
  });
};

/** Rows one stage changed, as the outbox records them. */
export type Change = Outcome & { action: ChangeAction };

/**
 * Runs `stage` as the kernel's one transaction: re-run whole after a lost race, engine errors mapped to the
 * contract's 409/422, and the outbox written in it (one change event per row, in order), so an event exists
 * iff the write commits.
 */
export const inKernelTransaction = async <T>(
  { app, udb, index, files, actor }: Pick<WriteRequest, "app" | "udb" | "index" | "files" | "actor">,
  errors: "write" | "delete",
  stage: (tx: UserDb) => Promise<{ result: T; changes: Change[] }>,
): Promise<T> => {
  let committed: Change[] = [];
  let counted: () => Promise<unknown> = async () => undefined;
  let result: T;
  try {
    result = await retriedWriteTransaction(udb, async (tx) => {
      const outcome = await stage(tx);
      // Events and webhooks carry each file with its url, as the answers do.
      if (files) for (const change of outcome.changes) for (const r of [...change.records, ...change.old]) addFileUrls(files.instance, index.table, r);
      for (const change of outcome.changes) await recordChanges(tx, index, change.action, change.records, change.old, actor);
      // Last: the file counter moves with the rows (in this transaction on MariaDB).
      if (files) counted = await moveFileUsage(app, tx, files, index.table, outcome.changes);
      committed = outcome.changes;
      return outcome.result;
    });
  } catch (err) {
    return mapDbError(err, index, errors);
  }
  await counted().catch((err) => logger.warn({ err }, "file usage not counted; a recount repairs it"));
  await releaseReplacedFiles(files, index.table, committed);
  return result;
};
