// The webhook management routes: create (secret generated, shown to admins), validation naming the field,
// outbound address rules, get/patch/delete, the test route and the refusals for callers of other workspaces.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook as Verifier } from "standardwebhooks";
import { readEventsConfig } from "../../lib/events/events-config";
import { refusedAddress } from "../../lib/webhooks/target-address";
import { postWebhook } from "../../lib/webhooks/post-webhook";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startReceiver } from "./receiver";

describe("outbound address rules", () => {
  it.each([
    ["127.0.0.1", false, "private or loopback"],
    ["10.1.2.3", false, "private or loopback"],
    ["192.168.1.1", false, "private or loopback"],
    ["::1", false, "private or loopback"],
    ["::ffff:127.0.0.1", false, "private or loopback"],
    ["169.254.169.254", true, "link-local"],
    ["fe80::1", true, "link-local"],
    ["::ffff:169.254.169.254", true, "link-local"],
  ])("refuses %s (private allowed: %s)", (address, allowPrivate, reason) => {
    expect(refusedAddress(address, allowPrivate)).toContain(reason);
  });

  it.each([["127.0.0.1", true], ["10.1.2.3", true], ["93.184.216.34", false], ["2606:4700::1111", false]])("allows %s (private allowed: %s)", (address, allowPrivate) => {
    expect(refusedAddress(address, allowPrivate)).toBeUndefined();
  });

  it("checks the address after DNS: localhost is refused without WEBHOOK_ALLOW_PRIVATE, and nothing is sent", async () => {
    const receiver = await startReceiver();
    const result = await postWebhook({ url: receiver.url.replace("127.0.0.1", "localhost"), headers: {}, body: "{}", timeoutMs: 1000, allowPrivate: false });
    expect(result.error).toMatch(/^refused: .*(127\.0\.0\.1|::1) is a private or loopback address/);
    expect(receiver.received).toEqual([]);
    const allowed = await postWebhook({ url: receiver.url.replace("127.0.0.1", "localhost"), headers: {}, body: "{}", timeoutMs: 1000, allowPrivate: true });
    expect(allowed.status).toBe(200);
    await receiver.close();
  });
});

describe.each(ENGINES)("webhook management on %s", (engine) => {
  let h: Harness;
  let db: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const base = () => `/api/v1/databases/${db}/webhooks`;

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true, pollMs: 50, timeoutMs: 500 } } });
    db = await createDatabase(h, "hooks", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
    receiver = await startReceiver(() => 200, "x".repeat(10_000));
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it("POST creates a webhook with a generated whsec_ secret; GET lists and reads it", async () => {
    const created = await h.request("POST", base(), { body: { url: receiver.url, tables: ["orders"], actions: ["insert"] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, tables: ["orders"], actions: ["insert"], active: true, failing_since: null, disabled_reason: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect((await h.request("GET", base())).body).toEqual([created.body]);
    expect((await h.request("GET", `${base()}/${created.body.id}`)).body).toEqual(created.body);
  });

  it.each([
    [{ url: "ftp://example.com/x" }, "url", "invalid_url"],
    [{ url: "not a url" }, "url", "invalid_url"],
    [{ url: "http://169.254.169.254/latest/meta-data" }, "url", "refused_address"],
    [{ url: "http://[fe80::1]/x" }, "url", "refused_address"],
    [{ url: "https://example.com/x", tables: ["nope"] }, "tables[0]", "unknown_table"],
  ])("refuses %j with 422 naming %s", async (body, field, code) => {
    const reply = await h.request("POST", base(), { body });
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it("PATCH changes fields and DELETE removes the webhook (then 404)", async () => {
    const { body: hook } = await h.request("POST", base(), { body: { url: receiver.url } });
    const patched = await h.request("PATCH", `${base()}/${hook.id}`, { body: { actions: ["delete"], active: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ actions: ["delete"], active: false, tables: null });
    expect((await h.request("DELETE", `${base()}/${hook.id}`)).status).toBe(204);
    expect((await h.request("GET", `${base()}/${hook.id}`)).status).toBe(404);
  });

  it("POST …/test sends one signed test event and answers its outcome, response body truncated to 4 KiB", async () => {
    const { body: hook } = await h.request("POST", base(), { body: { url: receiver.url } });
    const reply = await h.request("POST", `${base()}/${hook.id}/test`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ status: "delivered", attempts: 1, response_status: 200, event_id: null });
    expect(reply.body.response.body).toHaveLength(4096);
    const got = receiver.received.at(-1)!;
    expect(new Verifier(hook.secret).verify(got.body, got.headers)).toMatchObject({ action: "test", db });
    const log = await h.request("GET", `${base()}/${hook.id}/deliveries`);
    expect(log.body.map((d: { id: number }) => d.id)).toEqual([reply.body.id]);
    expect(log.body[0].request.headers["webhook-id"]).toBe(got.id);
  });

  it("another account: should be refused (404) on every webhook route; the owner's key: allowed", async () => {
    const { body: hook } = await h.request("POST", base(), { body: { url: receiver.url } });
    const other = await h.createAccount();
    for (const [method, path] of [["GET", base()], ["POST", base()], ["GET", `${base()}/${hook.id}`], ["POST", `${base()}/${hook.id}/test`], ["GET", `${base()}/${hook.id}/deliveries`]] as const) {
      const reply = await h.request(method, path, { key: other.key, body: method === "POST" ? { url: receiver.url } : undefined });
      expect(reply.status, `${method} ${path}`).toBe(404);
    }
    expect((await h.request("GET", `${base()}/${hook.id}`)).status).toBe(200);
  });
});
