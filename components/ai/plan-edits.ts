// Edits a builder makes to a planned build before applying it, as pure functions on the plan: each keeps the
// rest of the plan consistent (seed rows, references, joins), so the server's check of the edited plan only
// refuses what the builder really changed into something invalid.
import type { AiPlanView, ColumnInput } from "../api/types";

type Plan = AiPlanView;
type Join = Plan["joins"][number];
type Row = Record<string, unknown>;

export type PlanEdit =
  | { kind: "rename_table"; table: string; to: string }
  | { kind: "remove_table"; table: string }
  | { kind: "rename_column"; table: string; column: string; to: string }
  | { kind: "remove_column"; table: string; column: string }
  | { kind: "set_type"; table: string; column: string; type: string; references?: string }
  | { kind: "set_options"; table: string; column: string; options: string[] }
  | { kind: "add_column"; table: string; column: string };

/** The simple types a planned column can be changed to here (references name their table). */
export const EDITABLE_TYPES = ["varchar", "text", "int", "decimal", "boolean", "date", "datetime", "dropdown", "reference"] as const;

const mapTables = (plan: Plan, f: (t: Plan["tables"][number]) => Plan["tables"][number] | undefined): Plan["tables"] =>
  plan.tables.flatMap((t) => {
    const out = f(t);
    return out ? [out] : [];
  });

const mapColumns = (plan: Plan, table: string, f: (c: ColumnInput) => ColumnInput | undefined) =>
  mapTables(plan, (t) => (t.name === table ? { ...t, columns: t.columns.flatMap((c) => (f(c) ? [f(c)!] : [])) } : t));

/** `table.column` written in a join. */
const qualified = (table: string, column: string) => `${table}.${column}`;

const renameInJoin = (join: Join, rename: (ref: string) => string, renameTable: (t: string) => string = (t) => t): Join => ({
  ...join,
  base: renameTable(join.base),
  joins: join.joins.map((j) => ({ ...j, table: renameTable(j.table), on: j.on.map(([a, b]) => [rename(a), rename(b)] as [string, string]) })),
  columns: join.columns.map((c) => ({ ...c, column: rename(c.column) })),
});

const usesTable = (join: Join, table: string) => join.base === table || join.joins.some((j) => j.table === table);
const usesColumnInOn = (join: Join, ref: string) => join.joins.some((j) => j.on.some(([a, b]) => a === ref || b === ref));

/** Drops a table's seed rows and, since seed references are positions, the rows of every table referring to it. */
const dropSeed = (plan: Plan, table: string): Plan["seed"] => {
  const seed = { ...plan.seed };
  const drop = (name: string, seen: Set<string>) => {
    if (seen.has(name)) return;
    seen.add(name);
    delete seed[name];
    for (const t of plan.tables) if (t.columns.some((c) => c.type === "reference" && c.references === name)) drop(t.name, seen);
  };
  drop(table, new Set());
  return seed;
};

const withoutKey = (rows: Row[] | undefined, key: string) => rows?.map(({ [key]: _dropped, ...rest }) => rest);

/** A column of a new type: its name, nullable, and what that type needs. */
const retyped = (c: ColumnInput, type: string, references?: string): ColumnInput => {
  const base = { name: c.name, nullable: true } as ColumnInput;
  if (type === "varchar") return { ...base, type: "varchar", length: 200 } as ColumnInput;
  if (type === "decimal") return { ...base, type: "decimal", precision: 10, scale: 2 } as ColumnInput;
  if (type === "dropdown") return { ...base, type: "dropdown", options: ["one", "two"] } as ColumnInput;
  if (type === "reference") return { ...base, type: "reference", references } as ColumnInput;
  return { ...base, type } as ColumnInput;
};

export const applyEdit = (plan: Plan, edit: PlanEdit): Plan => {
  switch (edit.kind) {
    case "rename_table": {
      const { table, to } = edit;
      if (!to || to === table) return plan;
      const rename = (ref: string) => (ref.startsWith(`${table}.`) ? `${to}.${ref.slice(table.length + 1)}` : ref);
      const seed = Object.fromEntries(Object.entries(plan.seed).map(([name, rows]) => [name === table ? to : name, rows]));
      const tables = mapTables(plan, (t) => ({
        name: t.name === table ? to : t.name,
        columns: t.columns.map((c) => (c.type === "reference" && c.references === table ? ({ ...c, references: to } as ColumnInput) : c)),
      }));
      return { ...plan, tables, seed, joins: plan.joins.map((j) => renameInJoin(j, rename, (t) => (t === table ? to : t))) };
    }
    case "remove_table": {
      const { table } = edit;
      let next: Plan = { ...plan, seed: dropSeed(plan, table) };
      delete next.seed[table];
      // Columns of other tables referring to it go, with their seed values.
      for (const t of plan.tables) {
        for (const c of t.columns) if (t.name !== table && c.type === "reference" && c.references === table) next = applyEdit(next, { kind: "remove_column", table: t.name, column: c.name });
      }
      return { ...next, tables: next.tables.filter((t) => t.name !== table), joins: next.joins.filter((j) => !usesTable(j, table)) };
    }
    case "rename_column": {
      const { table, column, to } = edit;
      if (!to || to === column) return plan;
      const from = qualified(table, column);
      const rename = (ref: string) => (ref === from ? qualified(table, to) : ref);
      const seed = { ...plan.seed, ...(plan.seed[table] && { [table]: plan.seed[table].map(({ [column]: value, ...rest }) => ({ ...rest, ...(value !== undefined && { [to]: value }) })) }) };
      return { ...plan, tables: mapColumns(plan, table, (c) => (c.name === column ? ({ ...c, name: to } as ColumnInput) : c)), seed, joins: plan.joins.map((j) => renameInJoin(j, rename)) };
    }
    case "remove_column": {
      const { table, column } = edit;
      const ref = qualified(table, column);
      const joins = plan.joins
        .filter((j) => !usesColumnInOn(j, ref))
        .map((j) => ({ ...j, columns: j.columns.filter((c) => c.column !== ref) }))
        .filter((j) => j.columns.length > 0);
      const seed = { ...plan.seed, ...(plan.seed[table] && { [table]: withoutKey(plan.seed[table], column)! }) };
      return { ...plan, tables: mapColumns(plan, table, (c) => (c.name === column ? undefined : c)), seed, joins };
    }
    case "set_type": {
      const { table, column, type, references } = edit;
      const current = plan.tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
      if (!current || (current.type === type && (type !== "reference" || current.references === references))) return plan;
      const ref = qualified(table, column);
      // Its sample values no longer fit, and a join on it no longer holds.
      return {
        ...plan,
        tables: mapColumns(plan, table, (c) => (c.name === column ? retyped(c, type, references) : c)),
        seed: { ...plan.seed, ...(plan.seed[table] && { [table]: withoutKey(plan.seed[table], column)! }) },
        joins: plan.joins.filter((j) => !usesColumnInOn(j, ref)),
      };
    }
    case "set_options": {
      const { table, column } = edit;
      const options = [...new Set(edit.options.map((o) => o.trim()).filter(Boolean))];
      const fits = (plan.seed[table] ?? []).every((row) => row[column] === undefined || row[column] === null || options.includes(String(row[column])));
      const tables = mapColumns(plan, table, (c) => {
        if (c.name !== column) return c;
        const next = { ...c, options } as ColumnInput;
        if (c.default !== undefined && c.default !== null && !options.includes(String(c.default))) (next as Row).default = options[0];
        return next;
      });
      return { ...plan, tables, seed: fits ? plan.seed : dropSeed(plan, table) };
    }
    case "add_column": {
      const { table, column } = edit;
      if (!column || plan.tables.find((t) => t.name === table)?.columns.some((c) => c.name === column)) return plan;
      return { ...plan, tables: mapTables(plan, (t) => (t.name === table ? { ...t, columns: [...t.columns, { name: column, type: "varchar", length: 200, nullable: true } as ColumnInput] } : t)) };
    }
  }
};
