// Backups as jobs: a row per backup (running → done | failed), the archive written in the background to the
// backup store, stopped when its database is deleted. The routes' services live here too.
import type { App } from "../app-type";
import type { BackupsTable } from "../db/meta-schema";
import { notFound } from "../errors";
import { type ChangeCtx, commitRows } from "../meta/commit-meta";
import { type DbCtx, nowIso } from "../meta/context";
import { loadDatabase } from "../meta/load-schema";
import type { LoadedDatabase } from "../meta/schema-cache";
import { logger } from "../ops/logger";
import { backupStore } from "./backup-store";
import { writeBackup } from "./write-backup";

type Job = { controller: AbortController; done: Promise<void> };
const runningByApp = new WeakMap<App, Map<number, Job>>();
const running = (app: App) => {
  let jobs = runningByApp.get(app);
  if (!jobs) runningByApp.set(app, (jobs = new Map()));
  return jobs;
};

type BackupRow = Pick<BackupsTable, "status" | "size" | "tables" | "rows" | "event_id" | "error" | "scheduled" | "created_at" | "finished_at"> & { id: number };

export const backupView = (row: BackupRow) => ({
  id: row.id,
  status: row.status,
  size: row.size === null ? null : Number(row.size),
  tables: row.tables,
  rows: row.rows === null ? null : Number(row.rows),
  event_id: row.event_id === null ? null : Number(row.event_id),
  error: row.error,
  scheduled: row.scheduled === 1,
  created_at: row.created_at,
  finished_at: row.finished_at,
});

const finish = (app: App, id: number, values: Partial<Omit<BackupsTable, "id">>) =>
  app.engine.meta.updateTable("backups").set({ ...values, finished_at: nowIso() }).where("id", "=", id).execute();

const runBackup = async (app: App, database: LoadedDatabase, id: number, location: string, controller: AbortController) => {
  const databaseId = database.schema.id;
  try {
    const summary = await writeBackup(app, database, location, controller.signal);
    const still = await app.engine.meta.selectFrom("databases").select("id").where("id", "=", databaseId).executeTakeFirst();
    if (!still) {
      await backupStore(app).remove(location);
      throw new Error("the database was deleted during the backup");
    }
    await backupStore(app).put(location);
    await finish(app, id, { status: "done", size: summary.size, tables: summary.tables, rows: summary.rows, event_id: summary.eventId });
  } catch (err) {
    const message = controller.signal.aborted ? "the database was deleted during the backup" : err instanceof Error ? err.message : String(err);
    logger.warn({ err, backup: id, database: databaseId }, "backup failed");
    await finish(app, id, { status: "failed", error: message.slice(0, 1000) }).catch(() => undefined);
  }
};

/** Starts a backup of the loaded database; answers its row's id at once (the archive is written in the background). */
export const startBackup = async (app: App, database: LoadedDatabase, options: { scheduled?: boolean; actorId?: number; audit?: ChangeCtx } = {}) => {
  const meta = app.engine.meta;
  const row = { database_id: database.schema.id, status: "running" as const, location: "", scheduled: options.scheduled ? 1 : 0, created_by: options.actorId ?? null, created_at: nowIso() };
  // Asked for through the API, the row and its audit entry commit together.
  const { insertId } = options.audit
    ? await commitRows(options.audit, (trx) => trx.insertInto("backups").values(row).executeTakeFirstOrThrow())
    : await meta.insertInto("backups").values(row).executeTakeFirstOrThrow();
  const id = Number(insertId);
  const location = backupStore(app).locationFor(database.schema.id, id);
  await meta.updateTable("backups").set({ location }).where("id", "=", id).execute();
  const jobs = running(app);
  const controller = new AbortController();
  const done = runBackup(app, database, id, location, controller).finally(() => jobs.delete(id));
  jobs.set(id, { controller, done });
  return { id, status: "running" as const };
};

/**
 * Stops the running backups of a database (it is being deleted) and resolves once they have ended, as failed and
 * with no archive. Stopping closes their snapshot connections, so dropping the database next waits on no lock
 * a backup holds.
 */
export const abortBackups = async (app: App, databaseId: number) => {
  const rows = await app.engine.meta.selectFrom("backups").select("id").where("database_id", "=", databaseId).where("status", "=", "running").execute();
  const stopping = rows.flatMap(({ id }) => {
    const job = running(app).get(id);
    job?.controller.abort();
    return job ? [job.done] : [];
  });
  await Promise.all(stopping);
};

/** Resolves once every backup this process started has ended (tests; shutdown). */
export const settleBackups = async (app: App) => {
  await Promise.all([...running(app).values()].map((job) => job.done));
};

/** POST /databases/{instance}/backups → 202. */
export const createBackup = (ctx: DbCtx, _input: { instance: string }) => startBackup(ctx.app, ctx.database, { actorId: ctx.actor.accountId, audit: ctx });

const COLUMNS = ["id", "status", "size", "tables", "rows", "event_id", "error", "scheduled", "created_at", "finished_at", "location"] as const;

export const listBackups = async (ctx: DbCtx, _input: { instance: string }) => {
  const rows = await ctx.app.engine.meta.selectFrom("backups").select(COLUMNS).where("database_id", "=", ctx.database.schema.id).orderBy("id", "desc").execute();
  return rows.map(backupView);
};

export const getBackupRowOrThrow = async (ctx: DbCtx, id: number) => {
  const row = await ctx.app.engine.meta.selectFrom("backups").select(COLUMNS).where("id", "=", id).where("database_id", "=", ctx.database.schema.id).executeTakeFirst();
  if (!row) throw notFound(`Backup ${id} was not found.`);
  return row;
};

export const getBackup = async (ctx: DbCtx, { backup }: { instance: string; backup: number }) => backupView(await getBackupRowOrThrow(ctx, backup));

/** A database loaded by id for background work (schedules); undefined when it is gone. */
export const loadDatabaseById = async (app: App, databaseId: number) => {
  const row = await app.engine.meta.selectFrom("databases").select("instance").where("id", "=", databaseId).executeTakeFirst();
  return row ? loadDatabase(app, row.instance) : undefined;
};
