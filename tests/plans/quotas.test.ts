// Database quotas from the account's plan, raised for good by database credits; concurrent creates never pass
// a quota together. Real HTTP against a real SQLite folder or MariaDB schema.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

describe.each(ENGINES)("database quotas on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => h?.close());

  const create = (key: string, name = "Quota db") => h.request("POST", "/api/v1/databases", { key, body: { name } });
  const count = async (key: string) => (await h.request("GET", "/api/v1/databases", { key })).body.length as number;
  const grant = (accountId: number, body: Record<string, unknown>) => h.request("POST", `/api/v1/accounts/${accountId}/credits`, { body });

  it("refuses the third database of a free account with 402 and the quota, and keeps two", async () => {
    const { key } = await h.createAccount();
    expect((await create(key)).status).toBe(201);
    expect((await create(key)).status).toBe(201);
    const third = await create(key);
    expect(third.status).toBe(402);
    expect(third.body).toEqual({
      error: "quota_exceeded",
      message: "Your free plan allows 2 databases and this account has 2. Delete a database, add a database credit, or ask the operator of this install for a larger plan.",
      quota: { kind: "databases", limit: 2, used: 2, credits: 0 },
    });
    expect(await count(key)).toBe(2);
  });

  it("lets one database credit allow exactly one more, for good", async () => {
    const { accountId, key } = await h.createAccount();
    await create(key);
    await create(key);
    expect((await grant(accountId, { kind: "databases", amount: 1 })).status).toBe(201);
    const third = await create(key, "Paid for");
    expect(third.status).toBe(201);
    const fourth = await create(key);
    expect(fourth.status).toBe(402);
    expect(fourth.body.quota).toEqual({ kind: "databases", limit: 3, used: 3, credits: 0 });
    expect(fourth.body.message).toContain("(3 with the credits already used)");
    // The raise stays: delete one, and the next create needs no new credit.
    expect((await h.request("DELETE", `/api/v1/databases/${third.body.instance}`, { key })).status).toBe(204);
    expect((await create(key)).status).toBe(201);
    const ledger = await h.request("GET", "/api/v1/account/credits", { key });
    expect(ledger.body.balances).toEqual({ databases: 0, ai_calls: 0 });
    expect(ledger.body.entries.map((e: { entry: string; delta: number }) => [e.entry, e.delta])).toEqual([
      ["spend", -1],
      ["grant", 1],
    ]);
  });

  it("creates exactly 2 of 10 concurrent creates against a limit of 2", async () => {
    const { key } = await h.createAccount();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => create(key, `Race ${i}`)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, ...Array(8).fill(402)]);
    expect(await count(key)).toBe(2);
  }, 60_000);

  it("spends a credit once under concurrency: 10 creates with one credit make exactly 3", async () => {
    const { accountId, key } = await h.createAccount();
    await grant(accountId, { kind: "databases", amount: 1 });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => create(key, `Race ${i}`)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    expect(await count(key)).toBe(3);
    const account = await h.request("GET", "/api/v1/account", { key });
    expect(account.body.credits.databases).toBe(0);
    expect(account.body.usage.databases).toBe(3);
    expect(account.body.limits).toEqual({ databases: 3 });
    expect(account.body.plan.max_databases).toBe(2);
  }, 60_000);

  it("leaves the operator unlimited", async () => {
    for (let i = 0; i < 3; i++) expect((await create(h.accountKey, `Operator ${i}`)).status).toBe(201);
    const me = await h.request("GET", "/api/v1/account");
    expect(me.body.plan).toMatchObject({ name: "operator", max_databases: null, requests_per_second: null });
  });

  it("follows the plan: a larger plan allows more, a smaller limit refuses at once", async () => {
    const { accountId, key } = await h.createAccount();
    await create(key);
    await create(key);
    expect((await h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan: "pro" } })).body.plan.name).toBe("pro");
    expect((await create(key)).status).toBe(201);
    const unknown = await h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan: "platinum" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: "plan", code: "unknown_plan", message: 'there is no plan "platinum"' }]);
    const tiny = { max_databases: 1, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: 50 };
    expect((await h.request("PUT", "/api/v1/plans/tiny", { body: tiny })).status).toBe(200);
    await h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan: "tiny" } });
    const refused = await create(key);
    expect(refused.status).toBe(402);
    expect(refused.body.quota).toEqual({ kind: "databases", limit: 1, used: 3, credits: 0 });
    expect(refused.body.message).toMatch(/^Your tiny plan allows 1 database and this account has 3\./);
  });

  it("checks the body before the quota: an invalid create is 422 even at the limit", async () => {
    const { key } = await h.createAccount();
    await create(key);
    await create(key);
    const bad = await h.request("POST", "/api/v1/databases", { key, body: { name: "" } });
    expect(bad.status).toBe(422);
  });
});
