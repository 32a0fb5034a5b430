// The attempt log of some deliveries (webhook_attempts), oldest attempt first, for the deliveries API.
import type { App } from "../../app-type";
import { type AttemptView, attemptView } from "./webhook-view";

/** delivery id → its attempts in the order they were made; one query for the whole page of deliveries. */
export const loadAttempts = async (app: App, deliveryIds: number[]): Promise<Map<number, AttemptView[]>> => {
  const out = new Map<number, AttemptView[]>();
  if (deliveryIds.length === 0) return out;
  const rows = await app.engine.meta.selectFrom("webhook_attempts").selectAll().where("delivery_id", "in", deliveryIds).orderBy("id").execute();
  for (const row of rows) {
    const id = Number(row.delivery_id);
    out.set(id, [...(out.get(id) ?? []), attemptView(row)]);
  }
  return out;
};
