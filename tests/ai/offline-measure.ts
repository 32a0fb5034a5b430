// Precision and recall of the offline planner on labelled sentences: tables, attributes (name and type),
// listed options (whole) and references, each counted over every sentence together. The label column
// (`name`/`title`) is the planner's convention, not something a sentence states, so it is not counted.
import { planOffline } from "../../lib/ai/offline-planner";
import type { DraftPlan } from "../../lib/ai/plan";

/** A sentence with what it states: every table, every column besides the label with its type ("dropdown:a|b" with its options, whole), every reference ("rentals>cameras"). */
export type Labelled = { sentence: string; tables: string[]; attributes: Record<string, string>; references: string[] };

export type Score = { precision: number; recall: number; right: number; planned: number; wanted: number };
export type Measure = { tables: Score; attributes: Score; options: Score; references: Score; misses: string[] };

const LABELS = new Set(["name", "title"]);

const score = (planned: Set<string>, wanted: Set<string>): Omit<Score, "precision" | "recall"> => ({
  right: [...planned].filter((p) => wanted.has(p)).length,
  planned: planned.size,
  wanted: wanted.size,
});

const describeColumn = (c: DraftPlan["tables"][number]["columns"][number]) => (c.type === "dropdown" ? "dropdown" : String(c.type));

/** What a plan says, as comparable strings. */
const readPlan = (plan: DraftPlan, sentence: string) => {
  const said = sentence.toLowerCase();
  const tables = new Set(plan.tables.map((t) => t.name));
  const attributes = new Set<string>();
  const options = new Set<string>();
  const references = new Set<string>();
  for (const t of plan.tables) {
    for (const c of t.columns) {
      if (c.type === "reference") references.add(`${t.name}>${c.references}`);
      else if (!LABELS.has(String(c.name))) attributes.add(`${t.name}.${c.name}:${describeColumn(c)}`);
      // Options the sentence lists (not a default set the planner chose) count as options it read.
      const listed = Array.isArray(c.options) && c.options.every((o) => said.includes(String(o).toLowerCase()));
      if (c.type === "dropdown" && listed) options.add(`${t.name}.${c.name}:${(c.options as string[]).join("|")}`);
    }
  }
  return { tables, attributes, options, references };
};

const readWanted = (c: Labelled) => {
  const attributes = new Set<string>();
  const options = new Set<string>();
  for (const [key, want] of Object.entries(c.attributes)) {
    const [type, list] = want.split(":");
    attributes.add(`${key}:${type}`);
    if (list) options.add(`${key}:${list}`);
  }
  return { tables: new Set(c.tables), attributes, options, references: new Set(c.references) };
};

const ratio = (s: Omit<Score, "precision" | "recall">): Score => ({ ...s, precision: s.planned ? s.right / s.planned : 1, recall: s.wanted ? s.right / s.wanted : 1 });

export const measure = (cases: Labelled[]): Measure => {
  const sums = { tables: { right: 0, planned: 0, wanted: 0 }, attributes: { right: 0, planned: 0, wanted: 0 }, options: { right: 0, planned: 0, wanted: 0 }, references: { right: 0, planned: 0, wanted: 0 } };
  const misses: string[] = [];
  for (const c of cases) {
    const result = planOffline(c.sentence);
    const wanted = readWanted(c);
    const got = "error" in result ? { tables: new Set<string>(), attributes: new Set<string>(), options: new Set<string>(), references: new Set<string>() } : readPlan(result.plan, c.sentence);
    for (const kind of ["tables", "attributes", "options", "references"] as const) {
      const s = score(got[kind], wanted[kind]);
      sums[kind].right += s.right;
      sums[kind].planned += s.planned;
      sums[kind].wanted += s.wanted;
      const extra = [...got[kind]].filter((g) => !wanted[kind].has(g));
      const missing = [...wanted[kind]].filter((w) => !got[kind].has(w));
      if (extra.length || missing.length) misses.push(`${c.sentence.slice(0, 60)} | ${kind}: +${extra.join(",")} -${missing.join(",")}`);
    }
  }
  return { tables: ratio(sums.tables), attributes: ratio(sums.attributes), options: ratio(sums.options), references: ratio(sums.references), misses };
};
