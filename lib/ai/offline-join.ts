// The offline proposal for the Joins page's AI mode: the tables the sentence names (or, failing that, the
// first pair linked by a reference), joined on their reference column, every readable column in the output.
import type { DatabaseSchema, TableDef } from "../schema/types";
import type { PlanJoin } from "./plan";
import { isReference, isSecret } from "../schema/type-traits";

const words = (text: string) => text.toLowerCase().split(/[^a-z0-9_]+/).filter(Boolean);

const singular = (w: string) => w.replace(/ies$/, "y").replace(/s$/, "");

/** A reference from one table to another: `from.column` → `to.id`. */
type Link = { from: TableDef; column: string; to: TableDef };

const linksOf = (schema: DatabaseSchema): Link[] =>
  [...schema.tables.values()].flatMap((from) =>
    from.columns.filter((c) => isReference(c) && c.references && c.references !== from.name).map((c) => ({ from, column: c.name, to: schema.tables.get(c.references!)! })),
  );

/** The base table's id and every readable column; a joined table's id is the base's key column already. */
const outputColumns = (tables: TableDef[]) => {
  const used = new Set<string>();
  return tables.flatMap((t, i) =>
    [...(i === 0 ? ["id"] : []), ...t.columns.filter((c) => !isSecret(c)).map((c) => c.name)].map((c) => {
      // A clashing name is prefixed with its table, numbered if that is taken too.
      let as = used.has(c) ? `${singular(t.name)}_${c}` : c;
      for (let n = 2; used.has(as); n++) as = `${singular(t.name)}_${c}_${n}`;
      used.add(as);
      return { column: `${t.name}.${c}`, as };
    }),
  );
};

/** A join proposal for the sentence, or an error naming what it needs. */
export const proposeJoinOffline = (schema: DatabaseSchema, prompt: string): { join: PlanJoin; summary: string } | { error: string } => {
  const named = new Set(words(prompt).map(singular));
  const links = linksOf(schema);
  const mentioned = (t: TableDef) => named.has(singular(t.name));
  const link = links.find((l) => mentioned(l.from) && mentioned(l.to)) ?? links.find((l) => mentioned(l.from) || mentioned(l.to)) ?? links[0];
  if (!link) return { error: `"${schema.name}" has no reference column between two tables, so there is nothing to join on; add one (type reference) first.` };
  let name = `${link.from.name}_with_${link.to.name}`.slice(0, 63);
  while (schema.tables.has(name) || schema.joins?.has(name)) name = `${name.slice(0, 60)}_2`;
  return {
    join: { name, base: link.from.name, joins: [{ table: link.to.name, on: [[`${link.from.name}.${link.column}`, `${link.to.name}.id`]] }], columns: outputColumns([link.from, link.to]) },
    summary: `Offline proposal: ${link.from.name} joined to ${link.to.name} on ${link.from.name}.${link.column}.`,
  };
};
