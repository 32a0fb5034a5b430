// Claiming due attempts: rows locked with FOR UPDATE SKIP LOCKED on MariaDB and marked `delivering` with a
// lease in the same transaction, so two processes never both make one attempt. A process that dies mid-
// attempt leaves its lease to expire; another then takes the attempt over (at-least-once).
import { sql } from "kysely";
import type { App } from "../app";
import type { WebhookDeliveriesTable } from "../db/meta-schema";
import { nowIso } from "../meta/context";
import { metaTransaction } from "../db/meta-transaction";

export type Claimed = Pick<WebhookDeliveriesTable, "webhook_id" | "message_id" | "payload" | "attempts"> & { id: number };

export const claimDeliveries = async (app: App, limit: number, leaseMs: number): Promise<Claimed[]> => {
  const now = nowIso();
  return metaTransaction(app.engine.meta, async (trx) => {
    const lock = app.engine.kind === "mysql" ? sql` FOR UPDATE SKIP LOCKED` : sql``;
    const { rows } = await sql<Claimed>`SELECT ${sql.join(["id", "webhook_id", "message_id", "payload", "attempts"].map((c) => sql.id(c)))}
      FROM ${sql.id("webhook_deliveries")}
      WHERE (${sql.id("status")} = 'pending' AND ${sql.id("next_attempt_at")} <= ${now})
         OR (${sql.id("status")} = 'delivering' AND ${sql.id("claimed_until")} < ${now})
      ORDER BY ${sql.id("next_attempt_at")} LIMIT ${limit}${lock}`.execute(trx);
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
