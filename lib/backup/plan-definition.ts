// Definitions as code: the ordered changes that make a database match a definition, each run through the
// service that makes that change by hand (and so through changeSchema). New tables first (referenced ones
// before those referring to them), then columns, indexes, policies, hooks, joins, auth, and dropped tables
// last. Lossy changes (a dropped table or column, a narrower type) are flagged; a rename shows as drop + add.
import { toColumnDef } from "../contract/schemas/column-rules";
import { DEFAULT_AUTH } from "../meta/load-auth";
import type { DbCtx } from "../meta/context";
import type { AuthSettings, ColumnDef } from "../schema/types";
import { updateAuth } from "../services/auth/update-auth";
import { SECRET_MASK } from "../services/auth/provider-secrets";
import { addColumn } from "../services/columns/add-column";
import { dropColumn } from "../services/columns/drop-column";
import { updateColumn } from "../services/columns/update-column";
import { updateHooks } from "../services/hooks/hook-service";
import { addIndex } from "../services/indexes/add-index";
import { dropIndex } from "../services/indexes/drop-index";
import { createJoin } from "../services/joins/create-join";
import { deleteJoin } from "../services/joins/delete-join";
import { updatePolicies } from "../services/policies/update-policies";
import { createTable } from "../services/tables/create-table";
import { dropTable } from "../services/tables/drop-table";
import type { ParsedDefinition } from "./create-from-definition";
import { type Definition, readDefinition, referenceOrder } from "./read-definition";

export type Change = {
  action: string;
  target: string;
  lossy: boolean;
  detail: string;
  run: (ctx: DbCtx) => Promise<unknown>;
  /** What a column.drop or table.drop removes, for checking every drop before the first runs (refuseDrops). */
  drop?: { table: string; column?: string };
};

const sorted = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(sorted)
  : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)]))
  : value;
const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

const columnOf = (c: Parameters<typeof toColumnDef>[0]) => {
  const { system: _s, ...def } = toColumnDef(c);
  return def;
};

/** Whether changing `from` into `to` can lose values: another type, fewer characters or digits, options gone, required now. */
const narrows = (from: ColumnDef, to: ColumnDef) =>
  from.type !== to.type ||
  (to.length ?? 0) < (from.length ?? 0) ||
  (to.precision ?? 0) < (from.precision ?? 0) ||
  (to.scale ?? 0) < (from.scale ?? 0) ||
  (from.options ?? []).some((o) => !(to.options ?? []).includes(o)) ||
  (from.nullable && !to.nullable);

const POLICY_ACTIONS = ["select", "insert", "update", "delete"] as const;
const policiesOf = (p: Record<string, unknown> | undefined) => Object.fromEntries(POLICY_ACTIONS.map((a) => [a, (p?.[a] as string | null | undefined) ?? null]));
const hooksOf = (h: Record<string, unknown> | undefined) => Object.fromEntries((["insert", "update", "delete"] as const).map((a) => [a, (h?.[a] as unknown[] | undefined) ?? []]));
const joinOf = (j: Record<string, unknown>) => (j.sql ? { name: j.name, sql: j.sql } : { name: j.name, base: j.base, joins: j.joins, columns: j.columns });

/** The changes that turn `current` into `target`, in the order they must run. */
export const diffDefinitions = (current: Definition, target: ParsedDefinition): Change[] => {
  const changes: Change[] = [];
  const now = new Map(current.tables.map((t) => [t.name, t]));
  const wanted = new Map(target.tables.map((t) => [t.name, t]));
  const instanceOf = (ctx: DbCtx) => ctx.database.schema.instance;

  for (const t of referenceOrder(target.tables.map((t) => ({ ...t, columns: t.columns ?? [] })))) {
    if (now.has(t.name)) continue;
    const body = { name: t.name, columns: t.columns ?? [], indexes: t.indexes ?? [] };
    changes.push({ action: "table.create", target: t.name, lossy: false, detail: `create table ${t.name} with ${body.columns.length} columns`, run: (ctx) => createTable(ctx, { instance: instanceOf(ctx), body }) });
  }
  for (const t of target.tables) {
    const existing = now.get(t.name);
    if (!existing) continue;
    const had = new Map(existing.columns.map((c) => [c.name, columnOf(c)]));
    const wants = (t.columns ?? []).map(columnOf);
    for (const c of wants) {
      const before = had.get(c.name);
      const input = (t.columns ?? []).find((x) => x.name === c.name)!;
      if (!before) {
        changes.push({ action: "column.add", target: `${t.name}.${c.name}`, lossy: false, detail: `add ${c.type} column`, run: (ctx) => addColumn(ctx, { instance: instanceOf(ctx), table: t.name, body: input }) });
      } else if (!same(before, c)) {
        const body = { ...input, ...(before.default !== undefined && c.default === undefined && { default: null }) };
        changes.push({ action: "column.update", target: `${t.name}.${c.name}`, lossy: narrows(before, c), detail: `${JSON.stringify(sorted(before))} → ${JSON.stringify(sorted(c))}`, run: (ctx) => updateColumn(ctx, { instance: instanceOf(ctx), table: t.name, column: c.name, body }) });
      }
    }
    for (const name of had.keys()) {
      if (!wants.some((c) => c.name === name)) changes.push({ action: "column.drop", target: `${t.name}.${name}`, lossy: true, detail: "drop the column and its values", drop: { table: t.name, column: name }, run: (ctx) => dropColumn(ctx, { instance: instanceOf(ctx), table: t.name, column: name }) });
    }
    const hadIndexes = new Map(existing.indexes.map((i) => [i.name, i]));
    const wantIndexes = (t.indexes ?? []).map((i) => ({ name: i.name ?? i.columns.join("_"), columns: i.columns, unique: i.unique ?? false }));
    for (const i of existing.indexes) {
      const want = wantIndexes.find((w) => w.name === i.name);
      if (!want || !same(want, i)) changes.push({ action: "index.drop", target: `${t.name}.${i.name}`, lossy: false, detail: "drop the index", run: (ctx) => dropIndex(ctx, { instance: instanceOf(ctx), table: t.name, index: i.name }) });
    }
    for (const i of wantIndexes) {
      const had = hadIndexes.get(i.name);
      if (!had || !same(had, i)) changes.push({ action: "index.add", target: `${t.name}.${i.name}`, lossy: false, detail: `${i.unique ? "unique " : ""}index on ${i.columns.join(", ")}`, run: (ctx) => addIndex(ctx, { instance: instanceOf(ctx), table: t.name, body: i }) });
    }
  }
  for (const t of target.tables) {
    const existing = now.get(t.name);
    const policies = policiesOf(t.policies);
    if (!same(policies, policiesOf(existing?.policies))) {
      changes.push({ action: "policies.update", target: t.name, lossy: false, detail: "set the row policies", run: (ctx) => updatePolicies(ctx, { instance: instanceOf(ctx), table: t.name, body: policies }) });
    }
    const hooks = hooksOf(t.hooks);
    if (!same(hooks, hooksOf(existing?.hooks))) {
      changes.push({ action: "hooks.update", target: t.name, lossy: false, detail: "set the pre hooks", run: (ctx) => updateHooks(ctx, { instance: instanceOf(ctx), table: t.name, body: hooks as never }) });
    }
  }
  const hadJoins = new Map(current.joins.map((j) => [j.name as string, j]));
  const wantJoins = new Map(target.joins.map((j) => [j.name, j]));
  for (const [name, j] of hadJoins) {
    const want = wantJoins.get(name);
    if (!want || !same(joinOf(want as Record<string, unknown>), joinOf(j))) changes.push({ action: "join.delete", target: name, lossy: false, detail: "delete the join", run: (ctx) => deleteJoin(ctx, { instance: instanceOf(ctx), join: name }) });
  }
  for (const [name, j] of wantJoins) {
    const had = hadJoins.get(name);
    if (!had || !same(joinOf(j as Record<string, unknown>), joinOf(had))) changes.push({ action: "join.create", target: name, lossy: false, detail: "create the join", run: (ctx) => createJoin(ctx, { instance: instanceOf(ctx), body: j }) });
  }
  const auth = { ...DEFAULT_AUTH, ...(target.auth ?? {}) };
  // A masked or absent client secret means "keep the stored one": it is no change by itself.
  const had = { ...DEFAULT_AUTH, ...current.auth } as AuthSettings;
  const comparable = { ...auth, providers: (auth.providers ?? []).map((p, i) => (p.client_secret === undefined || p.client_secret === SECRET_MASK ? { ...p, client_secret: had.providers[i]?.client_secret } : p)) };
  if (target.auth && !same(comparable, had)) {
    changes.push({ action: "auth.update", target: "auth", lossy: false, detail: "set the auth settings", run: (ctx) => updateAuth(ctx, { instance: instanceOf(ctx), body: auth }) });
  }
  for (const t of [...current.tables].reverse()) {
    if (!wanted.has(t.name)) changes.push({ action: "table.drop", target: t.name, lossy: true, detail: "drop the table and its rows", drop: { table: t.name }, run: (ctx) => dropTable(ctx, { instance: instanceOf(ctx), table: t.name }) });
  }
  return changes.map((c, i) => ({ c, i })).sort((a, b) => ORDER[a.c.action] - ORDER[b.c.action] || a.i - b.i).map(({ c }) => c);
};

// Joins go before the columns and tables they read change; tables are created before their columns. Drops come
// last (after the policies, hooks and joins that stop reading them), so a failing apply has lost no value.
const ORDER: Record<string, number> = { "join.delete": 0, "table.create": 1, "column.add": 2, "column.update": 2, "index.drop": 2, "index.add": 2, "policies.update": 3, "hooks.update": 3, "join.create": 4, "auth.update": 5, "column.drop": 6, "table.drop": 7 };

export const planFor = async (ctx: DbCtx, target: ParsedDefinition) => diffDefinitions(await readDefinition(ctx.app, ctx.database), target);
