// A database's definition as JSON: what a backup's definition.json holds and GET …/definition answers. Tables
// come in an order that creates every referenced table first; no secret (the auth signing key) is included.
import type { App } from "../app-type";
import type { LoadedDatabase } from "../meta/schema-cache";
import { storedAuth } from "../services/auth/auth-view";
import type { ColumnDef, JoinDef, TableDef } from "../schema/types";

export type DefinitionTable = {
  name: string;
  columns: Omit<ColumnDef, "system">[];
  indexes: { name: string; columns: string[]; unique: boolean }[];
  policies: Record<string, string | null>;
  hooks: Record<string, unknown[]>;
};

export type Definition = {
  format: "tabula-definition";
  version: 1;
  tables: DefinitionTable[];
  joins: Record<string, unknown>[];
  auth: Record<string, unknown>;
};

const columnOf = ({ system: _system, ...column }: ColumnDef) => Object.fromEntries(Object.entries(column).filter(([, v]) => v !== undefined)) as Omit<ColumnDef, "system">;

/** Tables ordered so a table comes after every table it references (a cycle keeps its first-seen order). */
export const referenceOrder = <T extends { name: string; columns: { references?: string }[] }>(tables: T[]): T[] => {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out: T[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (t: T) => {
    if (state.has(t.name)) return;
    state.set(t.name, "visiting");
    for (const c of t.columns) {
      const target = c.references && c.references !== t.name ? byName.get(c.references) : undefined;
      if (target) visit(target);
    }
    state.set(t.name, "done");
    out.push(t);
  };
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t);
  return out;
};

const joinOf = (join: JoinDef): Record<string, unknown> =>
  join.sql ? { name: join.name, sql: join.sql } : { name: join.name, base: join.base, joins: join.joins, columns: join.columns };

export const readDefinition = async (app: App, database: LoadedDatabase): Promise<Definition> => {
  const { schema } = database;
  const hookRows = await app.engine.meta.selectFrom("table_hooks").select(["table_id", "hooks"]).where("database_id", "=", schema.id).execute();
  const hooksById = new Map(hookRows.map((r) => [r.table_id, JSON.parse(r.hooks) as Record<string, unknown[]>]));
  const tableOf = (t: TableDef): DefinitionTable => ({
    name: t.name,
    columns: t.columns.map(columnOf),
    indexes: (t.indexes ?? []).map((i) => ({ name: i.name, columns: [...i.columns], unique: i.unique })),
    policies: Object.fromEntries(Object.entries(t.policies ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string | null>,
    hooks: Object.fromEntries(Object.entries(hooksById.get(t.id) ?? {}).filter(([, steps]) => Array.isArray(steps) && steps.length > 0)),
  });
  return {
    format: "tabula-definition",
    version: 1,
    tables: referenceOrder([...schema.tables.values()].map(tableOf)),
    joins: [...(schema.joins?.values() ?? [])].sort((a, b) => a.name.localeCompare(b.name)).map(joinOf),
    auth: storedAuth(database) as unknown as Record<string, unknown>,
  };
};
