// The credits ledger: grants by the operator and by the signed billing webhook (a source grants once, a bad
// signature grants nothing), holds that spend or release exactly once, and credits that never expire.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signBillingBody } from "../../lib/billing/webhook";
import { creditBalances, holdCredits, settleHold } from "../../lib/credits/ledger";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

const SECRET = "whsec_test_5f2c9a";

describe.each(ENGINES)("credits on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    h.app.config.billingWebhookSecret = SECRET;
  }, 60_000);
  afterAll(async () => h?.close());

  const balances = (accountId: number) => creditBalances(h.app.engine.meta, accountId);
  const entries = async (accountId: number) => h.app.engine.meta.selectFrom("credit_ledger").selectAll().where("account_id", "=", accountId).execute();
  const grant = (accountId: number, body: Record<string, unknown>) => h.request("POST", `/api/v1/accounts/${accountId}/credits`, { body });
  const webhook = (text: string, signature: string | undefined) =>
    h.request("POST", "/api/v1/billing/webhook", { key: null, rawBody: text, headers: signature === undefined ? {} : { "x-tabula-signature": signature } });

  it("grants the same source once, also when the grants race", async () => {
    const { accountId } = await h.createAccount();
    const first = await grant(accountId, { kind: "ai_calls", amount: 50, source: "order_1" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ account: accountId, duplicate: false, balances: { ai_calls: 50, databases: 0 } });
    const again = await grant(accountId, { kind: "ai_calls", amount: 50, source: "order_1" });
    expect(again.body).toMatchObject({ duplicate: true, entry: { id: first.body.entry.id }, balances: { ai_calls: 50 } });
    const raced = await Promise.all(Array.from({ length: 6 }, () => grant(accountId, { kind: "databases", amount: 2, source: "order_2" })));
    expect(raced.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await balances(accountId)).toEqual({ databases: 2, ai_calls: 50 });
    expect(await entries(accountId)).toHaveLength(2);
  });

  it("refuses a grant to an unknown account and a bad amount, adding nothing", async () => {
    expect((await grant(999_999, { kind: "databases", amount: 1 })).status).toBe(404);
    const bad = await grant(h.accountId, { kind: "gold", amount: 0 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["amount", "kind"]);
    expect(await entries(h.accountId)).toHaveLength(0);
  });

  it("keeps credits that were granted long ago: they never expire", async () => {
    const { accountId, key } = await h.createAccount();
    const { body } = await grant(accountId, { kind: "databases", amount: 1, source: "old_order" });
    await h.app.engine.meta.updateTable("credit_ledger").set({ created_at: "2021-01-01T00:00:00.000Z" }).where("id", "=", body.entry.id).execute();
    for (let i = 0; i < 3; i++) expect((await h.request("POST", "/api/v1/databases", { key, body: { name: `Db ${i}` } })).status).toBe(201);
    expect(await balances(accountId)).toEqual({ databases: 0, ai_calls: 0 });
  });

  it("grants through the signed webhook once per source, by email or id", async () => {
    const { accountId } = await h.createAccount();
    const email = (await h.app.engine.meta.selectFrom("accounts").select("email").where("id", "=", accountId).executeTakeFirstOrThrow()).email;
    const text = JSON.stringify({ account: email.toUpperCase(), kind: "ai_calls", amount: 100, source: "pi_1" });
    const signed = `sha256=${signBillingBody(SECRET, text)}`;
    const first = await webhook(text, signed);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ account: accountId, duplicate: false, entry: { actor: "webhook", source: "pi_1", amount: 100 } });
    const replay = await webhook(text, signed);
    expect(replay.body.duplicate).toBe(true);
    const byId = JSON.stringify({ account: accountId, kind: "databases", amount: 1, source: "pi_2" });
    expect((await webhook(byId, `sha256=${signBillingBody(SECRET, byId)}`)).status).toBe(201);
    expect(await balances(accountId)).toEqual({ databases: 1, ai_calls: 100 });
  });

  it("answers 401 and grants nothing for a forged, altered or missing signature", async () => {
    const { accountId } = await h.createAccount();
    const text = JSON.stringify({ account: accountId, kind: "databases", amount: 5, source: "pi_forged" });
    const forged = await webhook(text, `sha256=${signBillingBody("another-secret", text)}`);
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ error: "unauthorized", message: "X-Tabula-Signature does not match the body." });
    const altered = text.replace('"amount":5', '"amount":500');
    expect((await webhook(altered, `sha256=${signBillingBody(SECRET, text)}`)).status).toBe(401);
    expect((await webhook(text, undefined)).status).toBe(401);
    expect((await webhook(text, "sha256=zz")).status).toBe(401);
    // A secret key is no substitute for the signature.
    expect((await h.request("POST", "/api/v1/billing/webhook", { rawBody: text })).status).toBe(401);
    expect(await entries(accountId)).toHaveLength(0);
  });

  it("turns the webhook off without a secret", async () => {
    h.app.config.billingWebhookSecret = undefined;
    try {
      const text = JSON.stringify({ account: h.accountId, kind: "databases", amount: 1, source: "pi_off" });
      const reply = await webhook(text, `sha256=${signBillingBody("", text)}`);
      expect(reply.status).toBe(401);
      expect(reply.body.message).toContain("BILLING_WEBHOOK_SECRET is not set");
    } finally {
      h.app.config.billingWebhookSecret = SECRET;
    }
  });

  it("validates the webhook body once the signature holds", async () => {
    const text = JSON.stringify({ account: "nobody@example.com", kind: "databases", amount: 1, source: "pi_nobody" });
    expect((await webhook(text, `sha256=${signBillingBody(SECRET, text)}`)).status).toBe(404);
    const noSource = JSON.stringify({ account: h.accountId, kind: "databases", amount: 1 });
    const reply = await webhook(noSource, `sha256=${signBillingBody(SECRET, noSource)}`);
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0].field).toBe("source");
  });

  it("leaves the balance unchanged after hold and release, and lowers it after hold and spend", async () => {
    const { accountId } = await h.createAccount();
    await grant(accountId, { kind: "ai_calls", amount: 2 });
    const hold = await holdCredits(h.app, { accountId, kind: "ai_calls", amount: 1, note: "AI build", actor: "system" });
    expect((await balances(accountId)).ai_calls).toBe(1);
    await settleHold(h.app, hold.id, "release", "system");
    expect((await balances(accountId)).ai_calls).toBe(2);
    await expect(settleHold(h.app, hold.id, "release", "system")).rejects.toMatchObject({ code: "conflict" });
    await expect(settleHold(h.app, hold.id, "spend", "system")).rejects.toMatchObject({ code: "conflict" });
    expect((await balances(accountId)).ai_calls).toBe(2);
    const spent = await holdCredits(h.app, { accountId, kind: "ai_calls", amount: 1, note: "AI build", actor: "system" });
    await settleHold(h.app, spent.id, "spend", "system");
    expect((await balances(accountId)).ai_calls).toBe(1);
    const rows = (await entries(accountId)).sort((a, b) => a.id - b.id);
    expect(rows.map((r) => [r.entry, r.delta, r.hold_id])).toEqual([
      ["grant", 2, null],
      ["hold", -1, null],
      ["release", 1, hold.id],
      ["hold", -1, null],
      ["spend", 0, spent.id],
    ]);
  });

  it("refuses a hold beyond the balance with 402, and concurrent holds never overdraw", async () => {
    const { accountId } = await h.createAccount();
    await grant(accountId, { kind: "ai_calls", amount: 3 });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => holdCredits(h.app, { accountId, kind: "ai_calls", amount: 1, note: "AI build", actor: "system" })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "quota_exceeded", quota: { kind: "ai_calls", credits: 0 } });
    expect((await balances(accountId)).ai_calls).toBe(0);
  });
});
