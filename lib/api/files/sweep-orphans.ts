// The sweeper: stored objects that no row names any more, older than a grace period, are deleted. They are what
// a crash between storing an upload and committing its row leaves (or a delete after a commit that failed).
// Keys are `{database id}/{table id}/{stored name}[/...]`: an object is kept while its table's rows name its
// stored name; everything under a table or database that no longer exists goes. The grace period covers writes
// still in flight, whose files are stored before their row commits. The pass then repairs the storage counters:
// expired reservations (of a process that died mid-upload) go, and each database with files is counted again.
import type { App } from "../../app-type";
import { loadDatabase } from "../../meta/load-schema";
import { filesOf } from "../../schema/file-value";
import { readColumn } from "../../ddl/column-values";
import { logger } from "../../ops/logger";
import { fileColumnsOf, fileStoreOf } from "./file-scope";
import { recountStorage } from "./storage-usage";

/** FILE_SWEEP_GRACE_SECONDS when unset: an hour, far past any write's time between store and commit. */
export const DEFAULT_SWEEP_GRACE_MS = 3_600_000;
/** `db/table/name`, or a thumb made of it: `db/table/name.thumbs/100x100`. */
const KEY = /^(\d+)\/(\d+)\/([^/]+?)(\.thumbs\/.+)?$/;

type Referenced = Map<string, Set<string> | null>;

/** Stored names per `db/table` the rows name now; null for a table or database that is gone. */
const referencedNames = async (app: App, databaseId: number, tableId: number, cache: Referenced, instances: Map<number, string>) => {
  const at = `${databaseId}/${tableId}`;
  if (cache.has(at)) return cache.get(at)!;
  let names: Set<string> | null = null;
  const instance = instances.get(databaseId);
  const database = instance ? await loadDatabase(app, instance).catch(() => undefined) : undefined;
  const table = database && [...database.schema.tables.values()].find((t) => t.id === tableId);
  if (database && table) {
    names = new Set();
    const udb = app.engine.userDb(database.schema.physical);
    for (const column of fileColumnsOf(table)) {
      for (const row of await readColumn(udb, table.name, column.name)) for (const f of filesOf(row.raw)) names.add(f.name);
    }
  }
  cache.set(at, names);
  return names;
};

/** Drops expired reservations and counts again every database that holds files or has a counter. */
const repairCounters = async (app: App, instances: Map<number, string>, cache: Referenced) => {
  await app.engine.meta.deleteFrom("file_reservations").where("expires_ms", "<=", Date.now()).execute();
  const counted = await app.engine.meta.selectFrom("file_usage").select("database_id").execute();
  const ids = new Set([...counted.map((r) => r.database_id), ...[...cache.keys()].map((at) => Number(at.split("/")[0]))]);
  for (const id of ids) {
    const instance = instances.get(id);
    if (instance) await recountStorage(app, instance).catch((err) => logger.warn({ err, databaseId: id }, "file usage recount failed"));
  }
};

/** One pass over the whole store; answers how many objects it deleted. */
export const sweepOrphans = async (app: App, { graceMs = DEFAULT_SWEEP_GRACE_MS }: { graceMs?: number } = {}): Promise<number> => {
  const store = fileStoreOf(app);
  const before = Date.now() - graceMs;
  const rows = await app.engine.meta.selectFrom("databases").select(["id", "instance"]).execute();
  const instances = new Map(rows.map((r) => [r.id, r.instance]));
  const cache: Referenced = new Map();
  const orphans: string[] = [];
  for await (const object of store.list("")) {
    const match = KEY.exec(object.key);
    if (!match || object.modified.getTime() > before) continue;
    const names = await referencedNames(app, Number(match[1]), Number(match[2]), cache, instances);
    if (!names?.has(match[3])) orphans.push(object.key);
  }
  await store.delete(orphans).catch((err) => logger.warn({ err }, "file sweep could not delete"));
  await repairCounters(app, instances, cache);
  return orphans.length;
};

/** Sweeps every `intervalMs` (FILE_SWEEP_SECONDS, default an hour; 0 turns it off); answers its stop. */
export const startFileSweeper = (app: App, intervalMs: number, graceMs: number) => {
  if (intervalMs <= 0) return () => undefined;
  const timer = setInterval(() => {
    sweepOrphans(app, { graceMs }).catch((err) => logger.warn({ err }, "file sweep failed"));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
