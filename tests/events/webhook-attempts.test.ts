// The deliveries API lists every attempt of a delivery with its own status and response body: a first attempt
// that failed stays in the log after a retry succeeds, a redelivery adds its attempts, a test event logs its one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { waitUntil } from "./receiver";

/** Answers the n-th request (over the whole run) with the n-th of `answers`, then 200 "fine". */
const startScriptedReceiver = async (answers: [number, string][]) => {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const [status, body] = answers[n++] ?? [200, "fine"];
      res.writeHead(status, { "content-type": "text/plain" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => n,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
};

type Attempt = { attempt: number; ok: boolean; response_status: number | null; response_body: string | null; error: string | null; at: string; duration_ms: number | null };
type Delivery = { id: number; event_id: number | null; status: string; attempts: number; attempt_log: Attempt[] };

describe.each(ENGINES)("webhook attempt log on %s", (engine) => {
  let h: Harness;
  let db: string;

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true, pollMs: 50, timeoutMs: 2000, retryScale: 0.002 } } });
    db = await createDatabase(h, "attempts", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
  }, 60_000);
  afterAll(async () => h?.close());

  const deliveries = async (hook: number) => {
    const res = await h.request("GET", `/api/v1/databases/${db}/webhooks/${hook}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return res.body as Delivery[];
  };
  const outcomes = (d: Delivery) => d.attempt_log.map(({ attempt, ok, response_status, response_body, error }) => ({ attempt, ok, response_status, response_body, error }));

  it("keeps the failed first attempt, with its status and body, after the retry succeeds; a redelivery adds its own", async () => {
    const receiver = await startScriptedReceiver([[503, "busy, try later"], [200, "got it"], [500, "broken now"], [204, ""]]);
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url } });
    await h.request("POST", `/v1/${db}/orders`, { body: { total: 1 } });
    await waitUntil(async () => (await deliveries(hook.id))[0]?.status === "delivered", 10_000, "the retried delivery");
    const [delivered] = await deliveries(hook.id);
    expect(delivered.attempts).toBe(2);
    expect(outcomes(delivered)).toEqual([
      { attempt: 1, ok: false, response_status: 503, response_body: "busy, try later", error: "answered 503" },
      { attempt: 2, ok: true, response_status: 200, response_body: "got it", error: null },
    ]);
    expect(delivered.attempt_log.every((a) => typeof a.at === "string" && typeof a.duration_ms === "number")).toBe(true);

    expect((await h.request("POST", `/api/v1/databases/${db}/webhooks/deliveries/${delivered.id}/redeliver`)).status).toBe(200);
    await waitUntil(async () => (await deliveries(hook.id))[0].attempt_log.length === 4, 10_000, "the redelivery's two attempts");
    const [again] = await deliveries(hook.id);
    expect(again.status).toBe("delivered");
    expect(outcomes(again).slice(2)).toEqual([
      { attempt: 1, ok: false, response_status: 500, response_body: "broken now", error: "answered 500" },
      { attempt: 2, ok: true, response_status: 204, response_body: "", error: null },
    ]);
    await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${hook.id}`);
    await receiver.close();
  }, 30_000);

  it("a test event logs its one attempt (event_id null) and is not retried", async () => {
    const receiver = await startScriptedReceiver([[418, "not today"]]);
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url, active: false } });
    const tested = await h.request("POST", `/api/v1/databases/${db}/webhooks/${hook.id}/test`);
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body).toMatchObject({ event_id: null, status: "failed", attempts: 1 });
    expect(outcomes(tested.body)).toEqual([{ attempt: 1, ok: false, response_status: 418, response_body: "not today", error: "answered 418" }]);
    await new Promise((r) => setTimeout(r, 300));
    const [listed] = await deliveries(hook.id);
    expect(outcomes(listed)).toEqual(outcomes(tested.body));
    expect(receiver.count()).toBe(1);
    await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${hook.id}`);
    await receiver.close();
  });
});
