// From a reading to planned tables: each entity's label column and the attributes the sentence gave it, the
// typical columns a template knows for a table of that name, and a reference per relation; tables ordered
// so that every reference points at an earlier one (a relation that would close a cycle is left out).
import { columnFor } from "./offline-columns";
import { DOMAINS } from "./offline-domains";
import type { Entity, Reading, Relation } from "./offline-read";
import { identifier } from "./offline-words";
import type { PlanColumn, PlanTable } from "./plan";

const set = (words: string) => new Set(words.split(" "));
/** Things that happen: they get a date rather than a name, and refer to the things they involve. */
const EVENTS = set("lease walk vote harvest planting assignment appointment trip booking reservation visit order purchase payment check-in checkin session loan rental delivery shipment transaction sale invoice match game shift entry log reading donation enrollment enrolment attendance application registration appearance transfer expense claim repair inspection ride flight stay admission prescription vaccination rsvp subscription refill workout run meeting");
/** Things usually called by a title rather than a name. */
const TITLED = set("episode post article book movie film song track album task issue ticket video chapter course job recipe paper report talk story thread question listing poll document page lesson bug feature milestone goal");
/** Entities that are people: their sample rows get people's names and emails. */
export const PEOPLE = set("owner member driver guest customer client student teacher employee author patient user player coach trainer volunteer donor tenant landlord agent attendee speaker host vet doctor nurse parent child contact staff reader subscriber artist musician writer editor manager worker mechanic instructor athlete couple vendor supplier seller buyer passenger pilot candidate applicant friend person people");

export type PlannedTable = PlanTable & { entity?: Entity; /** Template rows to take sample values from. */ sample?: Record<string, unknown>[] };

const headOf = (key: string) => key.split("_").pop() ?? key;
export const isEvent = (e: Entity) => EVENTS.has(headOf(e.key)) || EVENTS.has(e.key.replace(/_/g, "-"));

const template = (table: string) => {
  for (const domain of DOMAINS) {
    const found = domain.tables.find((t) => t.name === table);
    if (found) return { table: found, rows: domain.seed[table] };
  }
  return undefined;
};

/** Would `from → to` close a cycle among the relations kept so far? */
const closesCycle = (relations: Relation[], from: string, to: string) => {
  const reach = (at: string, seen: Set<string>): boolean =>
    at === from || relations.filter((r) => r.from === at && !seen.has(r.to)).some((r) => reach(r.to, seen.add(r.to)));
  return reach(to, new Set([to]));
};

/** The sentence's relations, then a template's between two named entities, then what events involve. */
const relationsOf = ({ entities, relations: stated, links }: Reading): Relation[] => {
  const kept: Relation[] = [];
  const linked = (a: string, b: string) => links.some(([l, r]) => (l === a && r === b) || (l === b && r === a));
  const add = (r: Relation) => {
    if (r.from !== r.to && !kept.some((k) => k.from === r.from && k.to === r.to) && !closesCycle(kept, r.from, r.to)) kept.push(r);
  };
  // "recipes with ingredients, and the quantity of each ingredient in a recipe": the link says it better.
  stated.filter((r) => !linked(r.from, r.to)).forEach(add);
  const byTable = new Map(entities.map((e) => [e.table, e]));
  for (const e of entities) {
    for (const c of template(e.table)?.table.columns ?? []) {
      const target = c.type === "reference" ? byTable.get(String(c.references)) : undefined;
      if (target && !linked(e.key, target.key)) add({ from: e.key, to: target.key, stated: false });
    }
  }
  // An event nobody said anything about refers to the things listed before it that nothing else refers to.
  entities.forEach((e, i) => {
    if (!isEvent(e) || kept.some((r) => r.from === e.key)) return;
    const before = entities.slice(0, i).filter((b) => !isEvent(b));
    const leaves = before.filter((b) => !before.some((o) => kept.some((r) => r.from === o.key && r.to === b.key)));
    leaves.slice(0, 2).forEach((b) => add({ from: e.key, to: b.key, stated: false }));
  });
  return kept;
};

const labelColumn = (e: Entity): PlanColumn | undefined => {
  // A table a template knows without a name (order_items, comments) is not called anything either.
  const known = template(e.table)?.table.columns;
  if (isEvent(e) || (known && !known.some((c) => c.name === "name" || c.name === "title"))) return undefined;
  const name = TITLED.has(headOf(e.key)) ? "title" : "name";
  return { name, type: "varchar", length: name === "title" ? 200 : 150, nullable: false };
};

const columnsOf = (e: Entity, references: PlanColumn[]): PlanColumn[] => {
  const columns: PlanColumn[] = [];
  const add = (c: PlanColumn | undefined) => c && !columns.some((k) => k.name === c.name) && columns.push(c);
  const own = e.attributes.map((a) => columnFor(a.words, a.options));
  // A named "title" or "first name" stands in for the label column.
  if (!own.some((c) => c && ["name", "title", "first_name", "full_name"].includes(String(c.name)))) add(labelColumn(e));
  references.forEach(add);
  own.forEach(add);
  return columns;
};

const reference = (to: Entity): PlanColumn => ({ name: `${to.key}_id`.slice(0, 63), type: "reference", references: to.table, nullable: false });

/** Tables in an order where each refers only to earlier ones; link tables last. */
export const planTables = (reading: Reading): { tables: PlannedTable[]; relations: Relation[]; links: string[] } => {
  const relations = relationsOf(reading);
  const byKey = new Map(reading.entities.map((e) => [e.key, e]));
  const tables: PlannedTable[] = [];
  const placed = new Set<string>();
  const waiting = [...reading.entities];
  while (waiting.length) {
    const i = Math.max(0, waiting.findIndex((e) => relations.every((r) => r.from !== e.key || placed.has(r.to))));
    const [e] = waiting.splice(i, 1);
    placed.add(e.key);
    const refs = relations.filter((r) => r.from === e.key).map((r) => reference(byKey.get(r.to)!));
    tables.push({ name: e.table, columns: columnsOf(e, refs), entity: e, sample: template(e.table)?.rows });
  }
  const links = reading.links.map(([a, b]) => {
    const [left, right] = [byKey.get(a)!, byKey.get(b)!];
    let name = identifier([left.key, right.table]);
    if (tables.some((t) => t.name === name)) name = `${name.slice(0, 57)}_links`;
    const own = (reading.linkAttributes[`${a}|${b}`] ?? []).map((attr) => columnFor(attr.words, attr.options)).filter((c): c is PlanColumn => !!c);
    tables.push({ name, columns: [reference(left), reference(right), ...own] });
    return name;
  });
  return { tables, relations, links };
};
