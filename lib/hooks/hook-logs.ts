// Every pre-hook run is logged (passwords redacted), outside the write's transaction so a refused or failed
// write keeps its log. Entries are queued and written in batches off the request path; reading the logs flushes
// the queue first. Values are cut to 2 KB (log-clip.ts); kept 7 days, and at most the newest
// LOG_ENTRIES_PER_DATABASE entries per database.
import type { Insertable } from "kysely";
import type { App } from "../app-type";
import { logger } from "../ops/logger";
import type { HookLogsTable } from "../db/meta-schema";
import type { TableDef } from "../schema/types";
import type { HookAction, HookRun } from "./hooks";
import { LOG_ENTRIES_PER_DATABASE } from "./limits";
import { clipInput, clipSteps, type LoggedStep } from "./log-clip";
import { isSecret } from "../schema/type-traits";

const KEEP_DAYS = 7;

type Entry = Insertable<HookLogsTable>;

const queues = new WeakMap<App, { entries: Entry[]; flushing?: Promise<void> }>();

const queueOf = (app: App) => {
  let queue = queues.get(app);
  if (!queue) queues.set(app, (queue = { entries: [] }));
  return queue;
};

export const redact = (table: TableDef, row: Record<string, unknown>) => {
  const secret = table.columns.filter((c) => isSecret(c));
  if (!secret.length) return row;
  const out = { ...row };
  for (const c of secret) if (c.name in out) out[c.name] = "[redacted]";
  return out;
};

/** Drops a database's entries beyond the newest LOG_ENTRIES_PER_DATABASE (ids grow with time). */
const capDatabase = async (app: App, databaseId: number) => {
  const edge = await app.engine.meta
    .selectFrom("hook_logs")
    .select("id")
    .where("database_id", "=", databaseId)
    .orderBy("id", "desc")
    .offset(LOG_ENTRIES_PER_DATABASE)
    .limit(1)
    .executeTakeFirst();
  if (edge) await app.engine.meta.deleteFrom("hook_logs").where("database_id", "=", databaseId).where("id", "<=", edge.id).execute();
};

/** Rows per INSERT: 8 values each stay far below SQLite's 32,766 and MySQL's 65,535 placeholders. */
const INSERT_CHUNK = 500;

/** Only the newest LOG_ENTRIES_PER_DATABASE entries of each database are kept, so older ones are not written. */
const newestPerDatabase = (entries: Entry[]) => {
  const left = new Map<number, number>();
  const kept: Entry[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const n = left.get(entries[i].database_id) ?? LOG_ENTRIES_PER_DATABASE;
    if (n === 0) continue;
    left.set(entries[i].database_id, n - 1);
    kept.push(entries[i]);
  }
  return kept.reverse();
};

/** Writes what is queued (and drops logs past their week or past their database's cap). */
export const flushHookLogs = async (app: App) => {
  const queue = queueOf(app);
  while (queue.flushing) await queue.flushing;
  if (!queue.entries.length) return;
  const batch = newestPerDatabase(queue.entries.splice(0));
  queue.flushing = (async () => {
    for (let at = 0; at < batch.length; at += INSERT_CHUNK) await app.engine.meta.insertInto("hook_logs").values(batch.slice(at, at + INSERT_CHUNK)).execute();
    const cutoff = new Date(Date.now() - KEEP_DAYS * 86_400_000).toISOString();
    await app.engine.meta.deleteFrom("hook_logs").where("created_at", "<", cutoff).execute();
    for (const databaseId of new Set(batch.map((e) => e.database_id))) await capDatabase(app, databaseId);
  })()
    .catch((err: unknown) => logger.error({ err }, "writing hook logs failed"))
    .finally(() => {
      queue.flushing = undefined;
    });
  await queue.flushing;
};

export const logHookRun = (app: App, databaseId: number, table: TableDef, action: HookAction, input: Record<string, unknown>, run: HookRun) => {
  const queue = queueOf(app);
  queue.entries.push({
    database_id: databaseId,
    table_name: table.name,
    action,
    status: run.status,
    duration_ms: Math.round(run.durationMs * 1000) / 1000,
    input: clipInput(redact(table, input)),
    steps: JSON.stringify(clipSteps(run.steps)),
    created_at: new Date().toISOString(),
  });
  if (queue.entries.length === 1) setTimeout(() => void flushHookLogs(app), 20).unref?.();
};

export type ReadLogsQuery = { table?: string; status?: string; _limit?: number };

export const readHookLogs = async (app: App, databaseId: number, query: ReadLogsQuery) => {
  await flushHookLogs(app);
  let q = app.engine.meta.selectFrom("hook_logs").selectAll().where("database_id", "=", databaseId);
  if (query.table) q = q.where("table_name", "=", query.table);
  if (query.status) q = q.where("status", "=", query.status);
  const rows = await q.orderBy("id", "desc").limit(query._limit ?? 50).execute();
  return rows.map((r) => {
    // A cut input is stored as the start of its JSON, a string; a whole one is the row, an object.
    const input = JSON.parse(r.input) as Record<string, unknown> | string;
    return {
      id: r.id,
      table: r.table_name,
      action: r.action as HookAction,
      status: r.status as HookRun["status"],
      duration_ms: Number(r.duration_ms),
      input,
      ...(typeof input === "string" ? { input_truncated: true } : {}),
      steps: JSON.parse(r.steps) as LoggedStep[],
      created_at: r.created_at,
    };
  });
};
