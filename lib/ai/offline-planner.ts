// The planner used when no model is configured: it reads the sentence (compromise tags the words) and plans
// the entities, attributes and relations it names; templates only add typical columns to those entities.
// Deterministic: the same prompt always gives the same plan, and every plan passes validatePlan.
import { type Entity, type Reading, readSentence } from "./offline-read";
import { seedRows } from "./offline-seed";
import { type PlannedTable, planTables } from "./offline-tables";
import type { DraftPlan, PlanJoin } from "./plan";

export type OfflinePlan = { plan: DraftPlan; summary: string; /** The entities read from the sentence, in its order. */ entities: string[] };

const MAX_TABLES = 12;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "A veterinary clinic: …" → "Veterinary clinic"; "… called Acme Vets" → "Acme Vets"; else the first entities. */
const databaseName = (reading: Reading) => {
  if (reading.given) return reading.given.slice(0, 80);
  const subject = reading.subject.join(" ");
  if (subject && subject.length <= 80) return capitalize(subject);
  const names = reading.entities.slice(0, 3).map((e) => e.table.replace(/_/g, " "));
  return capitalize(`${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`).slice(0, 80);
};

/** The column a joined table shows: its name or title, else its first text-like column. */
const labelOf = (t: PlannedTable) =>
  t.columns.find((c) => c.name === "name" || c.name === "title") ?? t.columns.find((c) => c.type === "varchar" || c.type === "dropdown" || c.type === "date");

const referenceCount = (t: PlannedTable) => t.columns.filter((c) => c.type === "reference").length;

/** The join for the main relation: a link table with both sides, else the table with the most references (the first of equals) with what it refers to. */
const mainJoin = (tables: PlannedTable[], links: string[]): PlanJoin[] => {
  const most = tables.reduce<PlannedTable | undefined>((best, t) => (referenceCount(t) > (best ? referenceCount(best) : 0) ? t : best), undefined);
  const base = tables.find((t) => t.name === links[0]) ?? most;
  if (!base) return [];
  const refs = base.columns.filter((c) => c.type === "reference").slice(0, 3);
  const used = new Set(["id"]);
  const columns = [{ column: `${base.name}.id`, as: "id" }];
  for (const c of base.columns) if (c.type !== "reference") used.add(String(c.name)) && columns.push({ column: `${base.name}.${c.name}`, as: String(c.name) });
  for (const ref of refs) {
    const target = tables.find((t) => t.name === ref.references)!;
    const label = labelOf(target);
    if (!label) continue;
    let as = String(ref.name).replace(/_id$/, "");
    if (used.has(as)) as = `${as}_${label.name}`;
    used.add(as);
    columns.push({ column: `${target.name}.${label.name}`, as });
  }
  let name = `${base.name}_with_${refs.map((r) => r.references).join("_and_")}`.slice(0, 63).replace(/_+$/, "");
  if (tables.some((t) => t.name === name)) name = `${name.slice(0, 58)}_view`;
  return [{ name, base: base.name, joins: refs.map((r) => ({ table: String(r.references), on: [[`${base.name}.${r.name}`, `${r.references}.id`]] })), columns }];
};

const describe = (e: Entity) => (e.attributes.length ? `"${e.table}" (with ${e.attributes.map((a) => a.words.join(" ")).join(", ")})` : `"${e.table}"`);

/** What the sentence was understood as, for the 422 when it names fewer than two entities. */
const notEnough = (reading: Reading) => {
  const understood = reading.entities.length ? `only ${reading.entities.map(describe).join(", ")}` : "no things to keep track of";
  const subject = reading.subject.length ? ` for "${reading.subject.join(" ")}"` : "";
  return (
    `The offline planner (used because no AI model is configured) understood ${understood}${subject}; it needs at least two, named in the plural. ` +
    `Try a sentence like "A veterinary clinic: owners, their pets with a species, and appointments with a date and a status (booked, done, cancelled)", ` +
    `or set AI_BASE_URL to an OpenAI-compatible model for free-form prompts.`
  );
};

/** The plan for the sentence, or an error saying what was understood. */
export const planOffline = (prompt: string): OfflinePlan | { error: string } => {
  const reading = readSentence(typeof prompt === "string" ? prompt.slice(0, 2000) : "");
  if (reading.entities.length < 2) return { error: notEnough(reading) };
  reading.entities = reading.entities.slice(0, MAX_TABLES);
  const kept = new Set(reading.entities.map((e) => e.key));
  reading.relations = reading.relations.filter((r) => kept.has(r.from) && kept.has(r.to));
  reading.links = reading.links.filter(([a, b]) => kept.has(a) && kept.has(b));
  const { tables, relations, links } = planTables(reading);
  const joins = mainJoin(tables, links);
  const plan: DraftPlan = { name: databaseName(reading), tables: tables.map(({ name, columns }) => ({ name, columns })), joins, seed: seedRows(tables) };
  const rows = Object.values(plan.seed).reduce((n, r) => n + r.length, 0);
  const byKey = new Map(reading.entities.map((e) => [e.key, e.table]));
  const arrows = [...relations.map((r) => `${byKey.get(r.from)} → ${byKey.get(r.to)}`), ...links.map((l) => `${l} (link)`)];
  const summary =
    `Offline plan for "${plan.name}", read from the sentence: ${tables.length} tables (${tables.map((t) => t.name).join(", ")})` +
    `${arrows.length ? `, references ${arrows.join(", ")}` : ""}${joins.length ? `, the join ${joins[0].name}` : ""} and ${rows} sample rows.`;
  return { plan, summary, entities: reading.entities.map((e) => e.table) };
};
