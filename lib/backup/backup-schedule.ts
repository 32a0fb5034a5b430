// Scheduled backups: PUT …/backups/schedule stores `every_hours` and `keep`; the scheduler (started by the
// composition root) takes each due schedule once across processes (a conditional move of next_at), starts its
// backup and deletes the scheduled backups past `keep`.
import { commitRows } from "../meta/commit-meta";
import type { App } from "../app-type";
import { type DbCtx, nowIso } from "../meta/context";
import { logger } from "../ops/logger";
import { backupStore } from "./backup-store";
import { loadDatabaseById, startBackup } from "./backup-jobs";

const HOUR = 3_600_000;

export const getSchedule = async (ctx: DbCtx, _input: { instance: string }) => {
  const row = await ctx.app.engine.meta.selectFrom("backup_schedules").selectAll().where("database_id", "=", ctx.database.schema.id).executeTakeFirst();
  return row ? { every_hours: row.every_hours, keep: row.keep, next_at: row.next_at } : { every_hours: null, keep: 7, next_at: null };
};

export const putSchedule = async (ctx: DbCtx, { body }: { instance: string; body: { every_hours: number | null; keep: number } }) => {
  const meta = ctx.app.engine.meta;
  const databaseId = ctx.database.schema.id;
  await commitRows(ctx, async (trx) => {
    await trx.deleteFrom("backup_schedules").where("database_id", "=", databaseId).execute();
    if (body.every_hours !== null) {
      const next = new Date(Date.now() + body.every_hours * HOUR).toISOString();
      await trx.insertInto("backup_schedules").values({ database_id: databaseId, every_hours: body.every_hours, keep: body.keep, next_at: next, updated_at: nowIso() }).execute();
    }
  });
  return getSchedule(ctx, { instance: ctx.database.schema.instance });
};

/** Deletes a database's scheduled backups past its newest `keep` (manual backups stay until deleted by hand). */
export const pruneScheduled = async (app: App, databaseId: number, keep: number) => {
  const meta = app.engine.meta;
  const old = await meta.selectFrom("backups").select(["id", "location"]).where("database_id", "=", databaseId).where("scheduled", "=", 1).where("status", "!=", "running").orderBy("id", "desc").offset(keep).limit(1_000).execute();
  for (const row of old) {
    await backupStore(app).remove(row.location);
    await meta.deleteFrom("backups").where("id", "=", row.id).execute();
  }
};

/** One pass: every due schedule whose next_at this process moves on gets its backup started. */
export const runDueSchedules = async (app: App, now = new Date()) => {
  const meta = app.engine.meta;
  const due = await meta.selectFrom("backup_schedules").selectAll().where("next_at", "<=", now.toISOString()).execute();
  for (const schedule of due) {
    const next = new Date(now.getTime() + schedule.every_hours * HOUR).toISOString();
    const moved = await meta.updateTable("backup_schedules").set({ next_at: next }).where("database_id", "=", schedule.database_id).where("next_at", "=", schedule.next_at).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) continue; // another process took it
    const database = await loadDatabaseById(app, schedule.database_id);
    if (!database) {
      await meta.deleteFrom("backup_schedules").where("database_id", "=", schedule.database_id).execute();
      continue;
    }
    await pruneScheduled(app, schedule.database_id, Math.max(0, schedule.keep - 1));
    await startBackup(app, database, { scheduled: true });
  }
};

/** The scheduler's timer (every BACKUP_SCHEDULER_SECONDS, default 60; 0 is off); unref'd. Returns the stop. */
export const startBackupScheduler = (app: App): (() => void) => {
  const seconds = Number(process.env.BACKUP_SCHEDULER_SECONDS ?? 60);
  if (!(seconds > 0)) return () => {};
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    runDueSchedules(app)
      .catch((err) => logger.warn({ err }, "scheduled backups failed"))
      .finally(() => (busy = false));
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
};
