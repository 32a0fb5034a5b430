// The plan's cap on webhooks per database: past it a create is 402 quota_exceeded naming the limit,
// each database counts its own, null is unlimited, concurrent creates never pass it together. Both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

const HOOK = { url: "http://127.0.0.1:9/hook" };

describe.each(ENGINES)("webhooks per database on %s", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true } } });
    const plans = [["hooks2", 2], ["hooks_open", undefined]] as const;
    for (const [name, cap] of plans) {
      const body = { max_databases: null, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: null, ...(cap === undefined ? {} : { max_webhooks_per_database: cap }) };
      const reply = await h.request("PUT", `/api/v1/plans/${name}`, { body });
      expect(reply.status, reply.text).toBe(200);
    }
  }, 60_000);
  afterAll(async () => h?.close());

  /** A new account on `plan` with one database of its own. */
  const ownerOn = async (plan: string) => {
    const { accountId, key } = await h.createAccount();
    expect((await h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan } })).status).toBe(200);
    return { key, db: await createDatabase(h, "hooked", [{ name: "orders", columns: [{ name: "total", type: "int" }] }], key) };
  };
  const create = (key: string, db: string) => h.request("POST", `/api/v1/databases/${db}/webhooks`, { key, body: HOOK });
  const count = async (key: string, db: string) => (await h.request("GET", `/api/v1/databases/${db}/webhooks`, { key })).body.length;

  it("shows the cap on the plans and defaults the free plan to 3", async () => {
    const plans = (await h.request("GET", "/api/v1/plans")).body as { name: string; max_webhooks_per_database: number | null }[];
    expect(plans.find((p) => p.name === "free")?.max_webhooks_per_database).toBe(3);
    expect(plans.find((p) => p.name === "hooks2")?.max_webhooks_per_database).toBe(2);
    expect(plans.find((p) => p.name === "hooks_open")?.max_webhooks_per_database, "omitted on PUT: unlimited").toBeNull();
  });

  it("allows webhooks up to the cap, refuses the next with 402 naming the limit, and keeps the count", async () => {
    const { key, db } = await ownerOn("hooks2");
    expect((await create(key, db)).status).toBe(201);
    expect((await create(key, db)).status).toBe(201);
    const third = await create(key, db);
    expect(third.status).toBe(402);
    expect(third.body).toEqual({
      error: "quota_exceeded",
      message: "Your hooks2 plan allows 2 webhooks per database and this database has 2. Delete a webhook of this database, or ask the operator of this install for a larger plan.",
      quota: { kind: "webhooks", limit: 2, used: 2, credits: 0 },
    });
    expect(await count(key, db)).toBe(2);
  });

  it("counts each database on its own, and a deleted webhook frees its place", async () => {
    const { key, db } = await ownerOn("hooks2");
    const other = await createDatabase(h, "hooked_too", [{ name: "items", columns: [{ name: "n", type: "int" }] }], key);
    const first = await create(key, db);
    await create(key, db);
    expect((await create(key, other)).status, "another database has its own 2").toBe(201);
    expect((await create(key, db)).status).toBe(402);
    expect((await h.request("DELETE", `/api/v1/databases/${db}/webhooks/${first.body.id}`, { key })).status).toBe(204);
    expect((await create(key, db)).status).toBe(201);
  });

  it("creates exactly 2 of 6 concurrent creates against a cap of 2", async () => {
    const { key, db } = await ownerOn("hooks2");
    const replies = await Promise.all(Array.from({ length: 6 }, () => create(key, db)));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 402, 402, 402, 402]);
    expect(await count(key, db)).toBe(2);
  }, 60_000);

  it("leaves null unlimited, and the operator unlimited", async () => {
    const { key, db } = await ownerOn("hooks_open");
    for (let i = 0; i < 4; i++) expect((await create(key, db)).status).toBe(201);
    const mine = await createDatabase(h, "operator_hooks", []);
    for (let i = 0; i < 4; i++) expect((await h.request("POST", `/api/v1/databases/${mine}/webhooks`, { body: HOOK })).status).toBe(201);
  });
});
