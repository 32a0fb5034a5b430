// Turns outbox events into delivery rows, per webhook: the webhook row is locked (SKIP LOCKED on MariaDB, so
// two processes never both fan out one webhook), its cursor read, the events after it inserted as pending
// deliveries and the cursor moved, in one metadata transaction. The outbox stays the source of truth.
import { sql } from "kysely";
import type { App } from "../app-type";
import { logger } from "../ops/logger";
import { nowIso } from "../meta/context";
import { readEvents } from "../events/outbox/read-events";
import { ensureOutbox } from "../events/outbox/outbox-table";
import { metaTransaction } from "../db/meta-transaction";

const BATCH = 500;

type Target = { id: number; tables: string | null; actions: string | null; physical: string; instance: string; database_id: number };

const fanOutOne = async (app: App, target: Target) => {
  const meta = app.engine.meta;
  await metaTransaction(meta, async (trx) => {
    const lock = app.engine.kind === "mysql" ? sql` FOR UPDATE SKIP LOCKED` : sql``;
    const { rows } = await sql<{ cursor: number; active: number }>`SELECT ${sql.id("cursor")}, ${sql.id("active")} FROM ${sql.id("webhooks")} WHERE ${sql.id("id")} = ${target.id}${lock}`.execute(trx);
    if (!rows[0] || !rows[0].active) return; // another process holds it, or it was switched off
    const cursor = Number(rows[0].cursor);
    await ensureOutbox(app.engine, target.physical);
    const tables: string[] | undefined = target.tables ? JSON.parse(target.tables) : undefined;
    const actions: string[] | undefined = target.actions ? JSON.parse(target.actions) : undefined;
    const entries = await readEvents(app.engine.userDb(target.physical), target.instance, cursor, BATCH, tables);
    if (entries.length === 0) return;
    const now = nowIso();
    const deliveries = entries.flatMap(({ event }) =>
      event && (!actions || actions.includes(event.action))
        ? [{ webhook_id: target.id, event_id: event.id, message_id: `evt_${target.database_id}_${event.id}`, payload: JSON.stringify(event), status: "pending" as const, attempts: 0, next_attempt_at: now, created_at: now, updated_at: now }]
        : [],
    );
    if (deliveries.length) await trx.insertInto("webhook_deliveries").values(deliveries).execute();
    await trx.updateTable("webhooks").set({ cursor: entries[entries.length - 1].id }).where("id", "=", target.id).execute();
  });
};

/** One pass over every active webhook; true when a webhook had a full batch (more to read at once). */
export const fanOut = async (app: App) => {
  const targets = await app.engine.meta
    .selectFrom("webhooks")
    .innerJoin("databases", "databases.id", "webhooks.database_id")
    .select(["webhooks.id", "webhooks.tables", "webhooks.actions", "databases.physical", "databases.instance", "webhooks.database_id"])
    .where("webhooks.active", "=", 1)
    .execute();
  for (const target of targets) {
    await fanOutOne(app, target).catch((err: unknown) => logger.warn({ err, webhook: target.id }, "reading change events for a webhook failed"));
  }
};
