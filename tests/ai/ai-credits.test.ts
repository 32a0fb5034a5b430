// What an AI build costs: the month's allowance first, then one held AI-call credit (spent on a plan, released
// on failure), and 402 before any model call when neither is left, also when builds race. A member's build in
// a workspace is paid by the workspace's owner.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { accountOnPlan, aiLedger, aiUsage, builds, grantAiCredit, postBuild } from "./ai-fixture";
import { aiConfig, type Reply, type ScriptedModel, startScriptedModel } from "./scripted-model";

/** A two-call build: a name and a table, then finish. */
const TWO_CALLS: Reply[] = [
  { tools: [{ name: "set_database_name", args: { name: "Notes" } }, { name: "add_table", args: { name: "notes", columns: [{ name: "body", type: "text" }] } }] },
  { tools: [{ name: "finish", args: { summary: "Notes." } }] },
];

const PROMPT = { prompt: "A notes app" };

const refusal = (plan: string, used: number, credits: number) => ({
  status: 402,
  body: {
    error: "quota_exceeded",
    message: `Your ${plan} plan allows 1 AI call this month and this account has ${used}. Wait for next month, buy AI-call credits, or ask the operator of this install for a larger plan.`,
    quota: { kind: "ai_calls", limit: 1, used, credits },
  },
});

describe.each(ENGINES)("AI build costs on %s", (engine) => {
  let h: Harness;
  let model: ScriptedModel;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    model = await startScriptedModel();
    h.app.config.ai = aiConfig(model.baseUrl);
  }, 60_000);
  beforeEach(() => model.reset());
  afterAll(async () => {
    await model?.close();
    await h?.close();
  });

  it("uses the allowance, then refuses with 402 before calling the model, then holds and spends a granted credit, and releases one on failure", async () => {
    const account = await accountOnPlan(h, { ai_calls_per_month: 1 });
    const { key } = account;

    model.script(...TWO_CALLS);
    const first = await postBuild(h, key, PROMPT);
    expect(first.status, first.text).toBe(201);
    expect(first.body.credit).toBe("charged");
    expect(await aiUsage(h, key)).toEqual({ calls: 1, credits: 0 });
    expect(await aiLedger(h, key)).toEqual([]);

    model.script(...TWO_CALLS);
    const refused = await postBuild(h, key, PROMPT);
    expect({ status: refused.status, body: refused.body }).toEqual(refusal(account.plan, 1, 0));
    expect(model.requests).toHaveLength(2);
    expect(await builds(h, key)).toHaveLength(1);

    await grantAiCredit(h, account.accountId);
    model.reset();
    model.script(...TWO_CALLS);
    const paid = await postBuild(h, key, PROMPT);
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.credit).toBe("charged");
    expect(model.requests).toHaveLength(2);
    expect(await aiLedger(h, key)).toEqual(["grant +1", "hold -1", "spend 0"]);
    expect(await aiUsage(h, key)).toEqual({ calls: 1, credits: 0 });

    await grantAiCredit(h, account.accountId);
    model.script({ status: 500, error: "down" }, { status: 500, error: "down" });
    expect((await postBuild(h, key, PROMPT)).status).toBe(502);
    expect(await aiLedger(h, key)).toEqual(["grant +1", "hold -1", "spend 0", "grant +1", "hold -1", "release +1"]);
    expect(await aiUsage(h, key)).toEqual({ calls: 1, credits: 1 });
    expect((await builds(h, key)).map((b) => `${b.status} ${b.credit}`)).toEqual(["failed released", "planned charged", "planned charged"]);
  });

  it("the operator is unlimited and pays nothing from the ledger", async () => {
    model.script(...TWO_CALLS);
    const reply = await postBuild(h, h.accountKey, PROMPT);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.credit).toBe("charged");
    expect(await aiLedger(h, h.accountKey)).toEqual([]);
  });

  it.each([
    ["one allowance call and no credit", 1, 0],
    ["no allowance and one credit", 0, 1],
  ])("5 builds at once with %s: exactly one reaches the model, four get 402", async (_label, allowance, credits) => {
    const account = await accountOnPlan(h, { ai_calls_per_month: allowance });
    if (credits) await grantAiCredit(h, account.accountId, credits);
    model.fallback = (n) => TWO_CALLS[n % 2];
    const replies = await Promise.all(Array.from({ length: 5 }, () => postBuild(h, account.key, PROMPT)));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 402, 402, 402, 402]);
    for (const r of replies.filter((x) => x.status === 402)) expect(r.body.quota).toEqual({ kind: "ai_calls", limit: allowance, used: allowance, credits: 0 });
    expect(model.requests).toHaveLength(2);
    expect((await builds(h, account.key)).map((b) => `${b.status} ${b.credit}`)).toEqual(["planned charged"]);
    expect(await aiLedger(h, account.key)).toEqual(credits ? ["grant +1", "hold -1", "spend 0"] : []);
  });

  it("a member's build in the owner's workspace is paid by the owner: the owner's next build is refused", async () => {
    const owner = await accountOnPlan(h, { ai_calls_per_month: 1, max_invitees: 1, roles: ["editor"] });
    const member = await h.createAccount();
    const invite = await h.request("POST", "/api/v1/team/invites", { key: owner.key, body: { role: "editor" } });
    expect(invite.status, invite.text).toBe(201);
    expect((await h.request("POST", "/api/v1/team/invites/accept", { key: member.key, body: { token: invite.body.token } })).status).toBe(200);

    model.script(...TWO_CALLS);
    const built = await postBuild(h, member.key, { ...PROMPT, workspace: owner.accountId });
    expect(built.status, built.text).toBe(201);
    expect(await aiUsage(h, owner.key)).toEqual({ calls: 1, credits: 0 });
    expect(await aiUsage(h, member.key)).toEqual({ calls: 0, credits: 0 });
    // The owner sees the workspace's build in its history; the member sees the one it made.
    expect((await builds(h, owner.key)).map((b) => b.id)).toEqual([built.body.id]);
    expect((await builds(h, member.key)).map((b) => b.id)).toEqual([built.body.id]);
    const refused = await postBuild(h, owner.key, PROMPT);
    expect({ status: refused.status, body: refused.body }).toEqual(refusal(owner.plan, 1, 0));
    expect(model.requests).toHaveLength(2);
  });
});
