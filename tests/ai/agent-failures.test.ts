// When the agent fails, the caller gets 422 ai_plan_invalid (no valid plan within the step budget) or 502
// ai_unavailable (the model is down), the build is kept as failed with its steps, and what was reserved comes
// back: an allowance call no longer counts, a held credit is released (the balance is as before).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, accountOnPlan, aiLedger, aiUsage, builds, grantAiCredit, postBuild } from "./ai-fixture";
import { aiConfig, deadBaseUrl, type ScriptedModel, startScriptedModel, summedUsage } from "./scripted-model";

const NO_PLAN_ERRORS = [
  { field: "name", code: "invalid_name", message: "name must be text of 1 to 80 characters" },
  { field: "tables", code: "required", message: "a new database needs at least one table" },
];

const BUDGET = 6;

describe.each(ENGINES)("failed AI builds on %s", (engine) => {
  let h: Harness;
  let model: ScriptedModel;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    model = await startScriptedModel();
  }, 60_000);
  beforeEach(() => {
    model.reset();
    h.app.config.ai = aiConfig(model.baseUrl, BUDGET);
  });
  afterAll(async () => {
    await model?.close();
    await h?.close();
  });

  /** An account paying by its one allowance call, or (0 allowed) by one granted credit. */
  const payer = async (by: "allowance" | "credit"): Promise<Account> => {
    const account = await accountOnPlan(h, { ai_calls_per_month: by === "allowance" ? 1 : 0 });
    if (by === "credit") await grantAiCredit(h, account.accountId);
    return account;
  };

  /** The reserved call came back: the allowance's one call is free again / the credit's hold was released. */
  const expectReleased = async (account: Account, by: "allowance" | "credit") => {
    expect(await aiUsage(h, account.key)).toEqual({ calls: 0, credits: by === "credit" ? 1 : 0 });
    expect(await aiLedger(h, account.key)).toEqual(by === "credit" ? ["grant +1", "hold -1", "release +1"] : []);
  };

  describe.each(["allowance", "credit"] as const)("paid by %s", (by) => {
    it("a model that keeps making mistakes: 422 after exactly the step budget, the build failed with every step", async () => {
      const account = await payer(by);
      model.fallback = () => ({ tools: [{ name: "add_table", args: { name: "Products", columns: [] } }] });
      const reply = await postBuild(h, account.key, { prompt: "A shop for handmade soap" });
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 422,
        body: { error: "ai_plan_invalid", message: `The model did not finish a valid plan within its budget of ${BUDGET} steps.`, errors: NO_PLAN_ERRORS },
      });
      expect(model.requests).toHaveLength(BUDGET);
      const [build] = await builds(h, account.key);
      expect(build).toMatchObject({ status: "failed", credit: "released", plan: null, database: null, error: reply.body.message, usage: summedUsage(BUDGET) });
      expect(build.steps).toHaveLength(BUDGET);
      for (const step of build.steps) expect(step).toEqual({ tool: "add_table", input: { name: "Products", columns: [] }, ok: false, error: expect.stringContaining("name") });
      await expectReleased(account, by);
    });

    it("a model answering 500: retried once, then 502 ai_unavailable with its message, the call released", async () => {
      const account = await payer(by);
      model.fallback = () => ({ status: 500, error: "model crashed" });
      const reply = await postBuild(h, account.key, { prompt: "A shop for handmade soap" });
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 502, body: { error: "ai_unavailable", message: "The AI model could not be reached (500: model crashed)." } });
      expect(model.requests).toHaveLength(2);
      expect((await builds(h, account.key, "failed")).map((b) => b.credit)).toEqual(["released"]);
      await expectReleased(account, by);
    });
  });

  // Once per engine: a refused connection carries no retry header, so the SDK's one retry waits its 2 s backoff.
  it("a model that is down (nothing listening): 502 ai_unavailable, the build failed, the held credit released", async () => {
    const account = await payer("credit");
    h.app.config.ai = aiConfig(await deadBaseUrl(), BUDGET);
    const reply = await postBuild(h, account.key, { prompt: "A shop for handmade soap" });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 502,
      body: { error: "ai_unavailable", message: expect.stringMatching(/^The AI model could not be reached \(.*ECONNREFUSED.*\)\.$/) },
    });
    const [build] = await builds(h, account.key);
    expect(build).toMatchObject({ status: "failed", credit: "released", steps: [], usage: null, error: reply.body.message });
    await expectReleased(account, "credit");
  });

  it("a model that never calls finish: 422 after exactly the budget even though every tool call was fine", async () => {
    const { key } = await h.createAccount();
    model.fallback = (n) => ({ tools: [{ name: "add_table", args: { name: `t${n}`, columns: [{ name: "x", type: "int" }] } }] });
    const reply = await postBuild(h, key, { prompt: "A shop for handmade soap" });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 422,
      body: { error: "ai_plan_invalid", message: `The model did not finish a valid plan within its budget of ${BUDGET} steps.`, errors: [NO_PLAN_ERRORS[0]] },
    });
    expect(model.requests).toHaveLength(BUDGET);
    const [build] = await builds(h, key);
    expect(build.steps.map((s: { tool: string; ok: boolean }) => `${s.tool} ${s.ok}`)).toEqual(Array(BUDGET).fill("add_table true"));
    expect(await aiUsage(h, key)).toEqual({ calls: 0, credits: 0 });
  });

  it("a model that answers in prose instead of calling tools: 422 after one call, saying it stopped early", async () => {
    const { key } = await h.createAccount();
    model.script({ text: "Sure! Your database has products and orders." });
    const reply = await postBuild(h, key, { prompt: "A shop for handmade soap" });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 422,
      body: { error: "ai_plan_invalid", message: `The model did not finish a valid plan (it stopped after 1 of at most ${BUDGET} steps).`, errors: NO_PLAN_ERRORS },
    });
    expect(model.requests).toHaveLength(1);
    expect((await builds(h, key, "failed"))[0]).toMatchObject({ steps: [], usage: summedUsage(1), credit: "released" });
  });

  it("a failed build gives its allowance call back: the next build on a one-call plan still runs", async () => {
    const account = await payer("allowance");
    model.script({ status: 500, error: "down" }, { status: 500, error: "still down" });
    expect((await postBuild(h, account.key, { prompt: "A shop for handmade soap" })).status).toBe(502);
    model.script(
      { tools: [{ name: "set_database_name", args: { name: "Soap" } }, { name: "add_table", args: { name: "soaps", columns: [{ name: "name", type: "varchar" }] } }] },
      { tools: [{ name: "finish", args: { summary: "Soaps." } }] },
    );
    const retry = await postBuild(h, account.key, { prompt: "A shop for handmade soap" });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.credit).toBe("charged");
    expect(await aiUsage(h, account.key)).toEqual({ calls: 1, credits: 0 });
    expect(await aiLedger(h, account.key)).toEqual([]);
  });
});
