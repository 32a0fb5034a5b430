// A builder's edits of a planned build: each keeps the plan consistent (seed rows, references, joins), so the
// edited plan still passes the same validation as the planner's; the edits themselves do what they say.
import { describe, expect, it } from "vitest";
import { applyEdit, type PlanEdit } from "../../components/ai/plan-edits";
import type { AiPlanView } from "../../components/api/types";
import { planOffline } from "../../lib/ai/offline-planner";
import { type DraftPlan, validatePlan } from "../../lib/ai/plan";

const planned = (sentence: string) => {
  const result = planOffline(sentence);
  if ("error" in result) throw new Error(result.error);
  return result.plan as unknown as AiPlanView;
};

const CLINIC = "A veterinary clinic: owners with a phone, their pets with a species, and appointments of pets with a date and a status (booked, done)";
const valid = (plan: AiPlanView) => expect(validatePlan(plan as unknown as DraftPlan).errors).toEqual([]);
const table = (plan: AiPlanView, name: string) => plan.tables.find((t) => t.name === name);
const run = (plan: AiPlanView, ...edits: PlanEdit[]) => edits.reduce(applyEdit, plan);

describe("editing a planned build", () => {
  it("starts from a valid plan with seed rows and a join", () => {
    const plan = planned(CLINIC);
    valid(plan);
    expect(plan.joins.length).toBe(1);
    expect(plan.seed.pets?.length).toBe(3);
  });

  it("renaming a table renames its seed rows, the references to it and the joins over it", () => {
    const plan = run(planned(CLINIC), { kind: "rename_table", table: "pets", to: "animals" });
    valid(plan);
    expect(table(plan, "pets")).toBeUndefined();
    expect(plan.seed.animals).toHaveLength(3);
    expect(table(plan, "appointments")!.columns.find((c) => c.name === "pet_id")).toMatchObject({ type: "reference", references: "animals" });
    expect(plan.joins[0].base).toBe("animals");
    expect(JSON.stringify(plan.joins)).not.toMatch(/"pets\./);
  });

  it("renaming a column carries its seed values and join references", () => {
    const before = planned(CLINIC);
    const plan = run(before, { kind: "rename_column", table: "pets", column: "species", to: "kind" });
    valid(plan);
    expect(plan.seed.pets.map((r) => r.kind)).toEqual(before.seed.pets.map((r) => r.species));
    expect(plan.seed.pets.every((r) => !("species" in r))).toBe(true);
  });

  it("removing a table removes the columns referring to it, the joins over it and the rows that pointed at its rows", () => {
    const plan = run(planned(CLINIC), { kind: "remove_table", table: "owners" });
    valid(plan);
    expect(plan.tables.map((t) => t.name)).toEqual(["pets", "appointments"]);
    expect(table(plan, "pets")!.columns.some((c) => c.name === "owner_id")).toBe(false);
    expect(plan.joins.every((j) => j.base !== "owners" && j.joins.every((x) => x.table !== "owners"))).toBe(true);
  });

  it("a new type drops the column's sample values; a reference names its table; a column is added and removed", () => {
    const plan = run(
      planned(CLINIC),
      { kind: "set_type", table: "pets", column: "species", type: "int" },
      { kind: "add_column", table: "appointments", column: "vet" },
      { kind: "set_type", table: "appointments", column: "vet", type: "reference", references: "owners" },
      { kind: "remove_column", table: "owners", column: "phone" },
    );
    valid(plan);
    expect(table(plan, "pets")!.columns.find((c) => c.name === "species")).toMatchObject({ type: "int", nullable: true });
    expect(plan.seed.pets.every((r) => !("species" in r))).toBe(true);
    expect(table(plan, "appointments")!.columns.find((c) => c.name === "vet")).toMatchObject({ type: "reference", references: "owners" });
    expect(table(plan, "owners")!.columns.map((c) => c.name)).toEqual(["name"]);
  });

  it("options that no longer hold a seed value drop that table's rows (and those pointing at them); options that do keep them", () => {
    const base = planned(CLINIC);
    const kept = run(base, { kind: "set_options", table: "appointments", column: "status", options: ["booked", "done", "missed"] });
    valid(kept);
    expect(kept.seed.appointments).toHaveLength(3);
    const narrowed = run(base, { kind: "set_options", table: "appointments", column: "status", options: [" missed ", "", "missed"] });
    valid(narrowed);
    expect(table(narrowed, "appointments")!.columns.find((c) => c.name === "status")).toMatchObject({ options: ["missed"], default: "missed" });
    expect(narrowed.seed.appointments).toBeUndefined();
  });

  it("an edit into something invalid is left for the server to refuse: an empty name", () => {
    const plan = run(planned(CLINIC), { kind: "add_column", table: "pets", column: "Bad Name" });
    expect(validatePlan(plan as unknown as DraftPlan).errors.length).toBeGreaterThan(0);
  });
});
