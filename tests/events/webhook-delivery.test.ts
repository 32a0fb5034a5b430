// Delivery to a loopback receiver that fails, times out and recovers: every event arrives, signatures verify
// (standardwebhooks), retries are spaced as the schedule says (scaled by WEBHOOK_RETRY_SCALE), the log shows
// each delivery's attempts; redeliver sends again; a webhook failing past its window is disabled with a reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook as Verifier } from "standardwebhooks";
import { readEventsConfig } from "../../lib/events/events-config";
import { RETRY_SECONDS } from "../../lib/webhooks/retry-schedule";
import { lookupWebhooks, recordOutcomes, sendAttempt } from "../../lib/webhooks/attempt-delivery";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startReceiver, waitUntil } from "./receiver";

const SCALE = 0.01;
const TIMEOUT_MS = 500;

describe.each(ENGINES)("webhook delivery on %s", (engine) => {
  let h: Harness;
  let db: string;

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true, pollMs: 50, timeoutMs: TIMEOUT_MS, retryScale: SCALE } } });
    db = await createDatabase(h, "deliver", [{ name: "orders", columns: [{ name: "total", type: "int" }] }, { name: "notes", columns: [{ name: "body", type: "text" }] }]);
  }, 60_000);
  afterAll(async () => h?.close());

  it("fails twice, times out, then recovers: every event delivered once it succeeds, retries spaced as documented", async () => {
    let first: string | undefined;
    const receiver = await startReceiver((id, attempt) => {
      first ??= id;
      if (id !== first) return 200;
      return attempt < 2 ? 500 : attempt === 2 ? "hang" : 200;
    });
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url, tables: ["orders"] } });
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await h.request("POST", `/v1/${db}/orders`, { body: { total: i } })).body);
    await h.request("POST", `/v1/${db}/notes`, { body: { body: "not subscribed" } });
    await h.request("PATCH", `/v1/${db}/orders/${created[0].id}`, { body: { total: 100 } });
    await h.request("DELETE", `/v1/${db}/orders/${created[1].id}`);
    const ok = () => new Set(receiver.received.filter((r) => r.id !== first || receiver.received.filter((x) => x.id === first).length >= 4).map((r) => r.id));
    await waitUntil(() => ok().size === 7, 20_000, "seven events delivered");

    const verifier = new Verifier(hook.secret);
    const bodies = receiver.received.map((r) => verifier.verify(r.body, r.headers) as { id: number; action: string; table: string; record: { total: number } });
    const byEvent = new Map(bodies.map((b) => [b.id, b]));
    // Deliveries run in parallel and retry independently: arrival order is not event order (documented).
    expect([...byEvent.values()].sort((a, b) => a.id - b.id).map((b) => [b.action, b.record.total])).toEqual([["insert", 0], ["insert", 1], ["insert", 2], ["insert", 3], ["insert", 4], ["update", 100], ["delete", 1]]);
    expect(bodies.every((b) => b.table === "orders")).toBe(true);

    const times = receiver.received.filter((r) => r.id === first).map((r) => r.at);
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    const planned = RETRY_SECONDS.slice(0, 3).map((s) => s * 1000 * SCALE);
    expect(gaps[0]).toBeGreaterThanOrEqual(planned[0] - 5);
    expect(gaps[1]).toBeGreaterThanOrEqual(planned[1] - 5);
    expect(gaps[2]).toBeGreaterThanOrEqual(planned[2] + TIMEOUT_MS - 5); // the hung attempt waited for its timeout first
    gaps.forEach((gap, i) => expect(gap).toBeLessThan(planned[i] + TIMEOUT_MS + 800));

    const log = (await h.request("GET", `/api/v1/databases/${db}/webhooks/${hook.id}/deliveries`)).body;
    expect(log).toHaveLength(7);
    expect(log.every((d: { status: string }) => d.status === "delivered")).toBe(true);
    const retried = log.find((d: { request: { headers: Record<string, string> } }) => d.request.headers["webhook-id"] === first);
    expect(retried).toMatchObject({ attempts: 4, response_status: 200, error: null });
    expect((await h.request("GET", `/api/v1/databases/${db}/webhooks/${hook.id}`)).body.failing_since).toBeNull();

    // Redeliver: the same webhook-id again, signed afresh; asking again while it is queued changes nothing.
    const before = receiver.received.length;
    const again = await h.request("POST", `/api/v1/databases/${db}/webhooks/deliveries/${retried.id}/redeliver`);
    expect(again.status, again.text).toBe(200);
    const queued = await h.request("POST", `/api/v1/databases/${db}/webhooks/deliveries/${retried.id}/redeliver`);
    expect(queued.status).toBe(200);
    expect(["pending", "delivering", "delivered"]).toContain(queued.body.status);
    await waitUntil(() => receiver.received.length > before, 5000, "the redelivery");
    expect(receiver.received[before].id).toBe(first);
    await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${hook.id}`);
    await receiver.close();
  }, 30_000);

  it("a webhook with actions [delete] gets only deletes", async () => {
    const receiver = await startReceiver();
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url, actions: ["delete"] } });
    const row = (await h.request("POST", `/v1/${db}/notes`, { body: { body: "short-lived" } })).body;
    await h.request("DELETE", `/v1/${db}/notes/${row.id}`);
    await waitUntil(() => receiver.received.length === 1, 5000, "the delete");
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received.map((r) => JSON.parse(r.body).action)).toEqual(["delete"]);
    await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${hook.id}`);
    await receiver.close();
  });

  it("records a batch's outcomes each on its own row, and leaves a row whose lease another process took over", async () => {
    const receiver = await startReceiver((id) => (id === "msg_batch_2" ? 503 : 200), "busy");
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url, tables: ["notes"] } });
    const meta = h.app.engine.meta;
    const now = new Date().toISOString();
    const leased = new Date(Date.now() + 600_000).toISOString(); // the dispatcher leaves leased rows alone
    const row = (n: number) => ({ webhook_id: hook.id, event_id: null, message_id: `msg_batch_${n}`, payload: `{"n":${n}}`, status: "delivering" as const, attempts: 1, next_attempt_at: now, claimed_until: leased, created_at: now, updated_at: now });
    await meta.insertInto("webhook_deliveries").values([row(1), row(2), row(3)]).execute();
    const rows = await meta.selectFrom("webhook_deliveries").select(["id", "webhook_id", "message_id", "payload", "attempts"]).where("webhook_id", "=", hook.id).orderBy("id").execute();
    const targets = await lookupWebhooks(h.app, [hook.id]);
    const outcomes = [];
    for (const r of rows) outcomes.push(await sendAttempt(h.app, { ...r, id: Number(r.id), attempts: 1 }, targets.get(hook.id)!, false));
    await meta.updateTable("webhook_deliveries").set({ attempts: 2 }).where("id", "=", rows[2].id).execute(); // taken over meanwhile

    await recordOutcomes(h.app, outcomes, targets);
    const after = await meta.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", hook.id).orderBy("id").execute();
    expect(after.map((d) => [d.status, d.response_status, d.response_body, d.claimed_until])).toEqual([
      ["delivered", 200, "busy", null],
      ["failed", 503, "busy", null], // not scheduled again: a one-off attempt (retries off)
      ["delivering", null, null, leased],
    ]);
    expect(JSON.parse(after[1].request_headers!)["webhook-id"]).toBe("msg_batch_2");
    expect(after[1].error).toBe("answered 503");
    await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${hook.id}`);
    await receiver.close();
  });
  it("takes over an attempt whose lease expired (its process died) and leaves one still leased", async () => {
    const receiver = await startReceiver();
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url, tables: ["notes"] } });
    const meta = h.app.engine.meta;
    const now = new Date().toISOString();
    const row = (n: number, claimedUntil: string) => ({ webhook_id: hook.id, event_id: null, message_id: `msg_lease_${n}`, payload: `{"n":${n}}`, status: "delivering" as const, attempts: 1, next_attempt_at: now, claimed_until: claimedUntil, created_at: now, updated_at: now });
    await meta.insertInto("webhook_deliveries").values([row(1, new Date(Date.now() - 1000).toISOString()), row(2, new Date(Date.now() + 600_000).toISOString())]).execute();
    h.app.changeEvents?.kickWebhooks();
    await waitUntil(() => receiver.received.length > 0, 5000, "the expired attempt sent again");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => r.id)).toEqual(["msg_lease_1"]);
    const after = await meta.selectFrom("webhook_deliveries").select(["message_id", "status", "attempts"]).where("webhook_id", "=", hook.id).orderBy("id").execute();
    expect(after.map((d) => [d.message_id, d.status, Number(d.attempts)])).toEqual([["msg_lease_1", "delivered", 2], ["msg_lease_2", "delivering", 1]]);
    await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${hook.id}`);
    await receiver.close();
  });
});

describe.each(ENGINES)("a webhook that keeps failing on %s", (engine) => {
  let h: Harness;
  afterAll(async () => h?.close());

  it("fails each delivery after the last retry and is disabled with a reason once failing past the window", async () => {
    const scale = 0.00002; // retries within ~1.7 s; the 3-day window is ~5.2 s
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true, pollMs: 20, timeoutMs: 500, retryScale: scale } } });
    const db = await createDatabase(h, "failing", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
    const receiver = await startReceiver(() => 503);
    const base = `/api/v1/databases/${db}/webhooks`;
    const { body: hook } = await h.request("POST", base, { body: { url: receiver.url } });
    await h.request("POST", `/v1/${db}/orders`, { body: { total: 1 } });
    let disabled: { active: boolean; disabled_reason: string | null; failing_since: string | null } | undefined;
    await waitUntil(async () => {
      await h.request("POST", `/v1/${db}/orders`, { body: { total: 2 } });
      disabled = (await h.request("GET", `${base}/${hook.id}`)).body;
      return disabled!.active === false;
    }, 20_000, "the webhook disabled");
    expect(disabled!.disabled_reason).toMatch(/^Disabled: every delivery failed for 3 days; last error: answered 503/);
    expect(disabled!.failing_since).not.toBeNull();
    const [oldest] = (await h.request("GET", `${base}/${hook.id}/deliveries?limit=200`)).body.slice(-1);
    expect(oldest).toMatchObject({ status: "failed", attempts: RETRY_SECONDS.length + 1, response_status: 503 });
    // Re-enabling clears the reason.
    const enabled = await h.request("PATCH", `${base}/${hook.id}`, { body: { active: true } });
    expect(enabled.body).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
    await receiver.close();
  }, 30_000);
});

// The dispatcher's passes (fan-out, then claiming due attempts: metadata queries and a transaction each) are
// woken by writes; a stream of writes must share them, or the dispatcher costs a pass per COMMIT.
describe.each(ENGINES)("webhook dispatcher passes on %s", (engine) => {
  let h: Harness;
  afterAll(async () => h?.close());

  it("writes in a stream share passes: at most one starts per 100 ms, not one per write, and delivery still follows", async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true } } });
    const db = await createDatabase(h, "stream", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
    const receiver = await startReceiver(() => 200);
    await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url } });
    const passes = () => h.app.changeEvents!.webhookPasses();
    const before = passes();
    const started = Date.now();
    for (let i = 0; i < 40; i++) {
      expect((await h.request("POST", `/v1/${db}/orders`, { body: { total: i } })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 10));
    }
    const during = passes() - before;
    const elapsed = Date.now() - started;
    expect(during).toBeGreaterThan(0);
    expect(during).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    await waitUntil(() => new Set(receiver.received.map((r) => r.id)).size === 40, 10_000, "all 40 events delivered");
    await receiver.close();
  }, 30_000);
});
