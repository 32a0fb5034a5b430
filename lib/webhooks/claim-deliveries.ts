// Claiming due attempts: rows locked with FOR UPDATE SKIP LOCKED on MariaDB and marked `delivering` with a
// lease in the same transaction, so two processes never both make one attempt. A process that dies mid-
// attempt leaves its lease to expire; another then takes the attempt over (at-least-once).
import { sql, type Transaction } from "kysely";
import type { App } from "../app-type";
import type { MetaDb, WebhookDeliveriesTable } from "../db/meta-schema";
import { nowIso } from "../meta/context";
import { metaTransaction } from "../db/meta-transaction";

export type Claimed = Pick<WebhookDeliveriesTable, "webhook_id" | "message_id" | "payload" | "attempts"> & { id: number };

/**
 * Due rows of one kind, oldest first, locked: expired leases, or pending attempts whose time has come. Each
 * reads its index range in order and stops at `limit` (one query for both sorted the whole backlog).
 */
const selectDue = async (trx: Transaction<MetaDb>, engine: App["engine"]["kind"], due: "lease" | "pending", now: string, limit: number) => {
  const lock = engine === "mysql" ? sql` FOR UPDATE SKIP LOCKED` : sql``;
  const when = due === "lease" ? sql`${sql.id("status")} = 'delivering' AND ${sql.id("claimed_until")} < ${now}` : sql`${sql.id("status")} = 'pending' AND ${sql.id("next_attempt_at")} <= ${now}`;
  const { rows } = await sql<Claimed>`SELECT ${sql.join(["id", "webhook_id", "message_id", "payload", "attempts"].map((c) => sql.id(c)))}
    FROM ${sql.id("webhook_deliveries")} WHERE ${when} ORDER BY ${sql.id("next_attempt_at")} LIMIT ${limit}${lock}`.execute(trx);
  return rows;
};

/** Up to `limit` due attempts, expired leases first (a process died mid-attempt), then pending ones by due time. */
export const claimDeliveries = async (app: App, limit: number, leaseMs: number): Promise<Claimed[]> => {
  const now = nowIso();
  return metaTransaction(app.engine.meta, async (trx) => {
    const expired = await selectDue(trx, app.engine.kind, "lease", now, limit);
    const rows = expired.length < limit ? [...expired, ...(await selectDue(trx, app.engine.kind, "pending", now, limit - expired.length))] : expired;
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    await trx
      .updateTable("webhook_deliveries")
      .set((eb) => ({ status: "delivering", attempts: eb("attempts", "+", 1), claimed_until: new Date(Date.now() + leaseMs).toISOString(), updated_at: now }))
      .where("id", "in", ids)
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) + 1 }));
  });
};
