// The audit log's retention: entries older than AUDIT_DAYS (default 90) are deleted, oldest first in batches,
// by the app's timer (lib/app.ts). Nothing else deletes entries, and no route changes them.
import type { App } from "../../app-type";

export const DEFAULT_AUDIT_DAYS = 90;
export const AUDIT_PRUNE_MS = 3_600_000;
const BATCH = 1000;

/** Deletes the entries older than the retention; answers how many went. */
export const pruneAudit = async (app: App, now = Date.now()): Promise<number> => {
  const meta = app.engine.meta;
  const cutoff = new Date(now - (app.config.auditDays ?? DEFAULT_AUDIT_DAYS) * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const old = await meta.selectFrom("audit_log").select("id").where("at", "<", cutoff).orderBy("id").limit(BATCH).execute();
    if (old.length === 0) return deleted;
    await meta.deleteFrom("audit_log").where("id", "<=", old[old.length - 1].id).where("at", "<", cutoff).execute();
    deleted += old.length;
    if (old.length < BATCH) return deleted;
  }
};

/** Prunes now and then every AUDIT_PRUNE_MS; the returned function stops it. */
export const startAuditPrune = (app: App, onError: (err: unknown) => void) => {
  const run = () => void pruneAudit(app).catch(onError);
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, AUDIT_PRUNE_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
};
