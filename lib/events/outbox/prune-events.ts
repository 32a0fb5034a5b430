import { sql } from "kysely";
import type { App } from "../../app-type";
import { toStoredDatetime } from "../../schema/column-types";
import { logger } from "../../ops/logger";
import { eventsConfig } from "../events-config";
import { ensureOutbox, EVENTS_TABLE } from "./outbox-table";
import { sequenceEvents } from "./sequence-events";

const BATCH = 1000;

/**
 * Deletes events older than the retention from one database, oldest first in batches (times rise with ids,
 * so no index on `at` is needed and the work is what is deleted); the sequence row keeps the next id.
 */
export const pruneDatabase = async (app: App, physical: string, now = Date.now()) => {
  const udb = app.engine.userDb(physical);
  await ensureOutbox(app.engine, physical);
  await sequenceEvents(udb); // events nobody has read yet leave the queue for the outbox, where retention applies
  const cutoff = toStoredDatetime(new Date(now - eventsConfig(app.config).retentionMs));
  for (;;) {
    const { rows } = await sql<{ id: number; at: string }>`SELECT ${sql.id("id")}, ${sql.id("at")} FROM ${udb.table(EVENTS_TABLE)} ORDER BY ${sql.id("id")} LIMIT ${BATCH}`.execute(udb.db);
    const fresh = rows.findIndex((r) => r.at >= cutoff);
    const old = fresh === -1 ? rows : rows.slice(0, fresh);
    if (old.length === 0) return;
    await sql`DELETE FROM ${udb.table(EVENTS_TABLE)} WHERE ${sql.id("id")} <= ${Number(old[old.length - 1].id)}`.execute(udb.db);
    if (old.length < BATCH) return;
  }
};

/** One pass over every database; a failing one is logged and the rest still pruned. */
export const pruneEvents = async (app: App, now = Date.now()) => {
  const rows = await app.engine.meta.selectFrom("databases").select("physical").execute();
  for (const { physical } of rows) {
    await pruneDatabase(app, physical, now).catch((err: unknown) => logger.warn({ err, physical }, "pruning change events failed"));
  }
};
