// PUT /ai/builds/{id}/plan: a builder edits a planned build before applying it. A valid edit is saved and is
// what Apply creates; an invalid one is 422 listing every problem with the saved plan unchanged; an applied
// build is 409; another account's build is 404. Both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyEdit } from "../../components/ai/plan-edits";
import type { AiPlanView } from "../../components/api/types";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { postBuild } from "./ai-fixture";

const SENTENCE = "A tool library: tools with a condition (new, good, worn), neighbors with a phone, and loans of tools to neighbors with a due date";

describe.each(ENGINES)("editing a planned build on %s", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine, "node");
  });
  afterAll(() => h?.close());

  const plan = async () => {
    const made = await postBuild(h, h.accountKey, { prompt: SENTENCE });
    expect(made.status, made.text).toBe(201);
    return { id: made.body.id as number, plan: made.body.plan as AiPlanView };
  };
  const put = (id: number, body: unknown, key = h.accountKey) => h.request("PUT", `/api/v1/ai/builds/${id}/plan`, { key, body });

  it("saves a valid edit, and Apply creates the edited schema", async () => {
    const { id, plan: first } = await plan();
    const edited = applyEdit(applyEdit(first, { kind: "rename_column", table: "neighbors", column: "phone", to: "mobile" }), { kind: "set_options", table: "tools", column: "condition", options: ["new", "used"] });
    const saved = await put(id, { plan: edited });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.plan.tables.find((t: { name: string }) => t.name === "neighbors").columns.map((c: { name: string }) => c.name)).toContain("mobile");
    const applied = await h.request("POST", `/api/v1/ai/builds/${id}/apply`);
    expect(applied.status, applied.text).toBe(200);
    const instance = applied.body.instance as string;
    const neighbors = await h.request("GET", `/api/v1/databases/${instance}/tables/neighbors`);
    expect(neighbors.body.columns.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["mobile"]));
    expect(neighbors.body.columns.map((c: { name: string }) => c.name)).not.toContain("phone");
    const tools = await h.request("GET", `/api/v1/databases/${instance}/tables/tools`);
    expect(tools.body.columns.find((c: { name: string }) => c.name === "condition").options).toEqual(["new", "used"]);
    // Applied: no more edits.
    const late = await put(id, { plan: edited });
    expect(late.status, late.text).toBe(409);
  });

  it("refuses an invalid plan with every problem listed and keeps the saved one", async () => {
    const { id, plan: first } = await plan();
    const broken = applyEdit(first, { kind: "add_column", table: "tools", column: "Bad Name" });
    const refused = await put(id, { plan: broken });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error).toBe("ai_plan_invalid");
    expect(refused.body.errors.map((e: { field: string }) => e.field).join(" ")).toContain("tables[0].columns");
    const kept = await h.request("GET", `/api/v1/ai/builds/${id}`);
    expect(kept.body.plan).toEqual(first);
    const shapeless = await put(id, { plan: { name: "x" } });
    expect(shapeless.status, shapeless.text).toBe(422);
  });

  it("another account cannot edit the build (404), and it stays as planned", async () => {
    const { id, plan: first } = await plan();
    const other = await h.createAccount();
    const refused = await put(id, { plan: applyEdit(first, { kind: "remove_table", table: "loans" }) }, other.key);
    expect(refused.status, refused.text).toBe(404);
    expect((await h.request("GET", `/api/v1/ai/builds/${id}`)).body.plan).toEqual(first);
  });
});
