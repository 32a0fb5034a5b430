// A join's plan, built once per cached definition and shared by its reads (read-join.ts) and its aggregates
// (read-aggregate.ts), with the row policies of its tables.
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { ApiError } from "../errors";
import { refColumn, refTable, resolveJoinRef } from "../joins/join-refs";
import { rowFilter } from "../rls/row-filter";
import type { ColumnDef, DatabaseSchema, JoinDef } from "../schema/types";
import type { Caller } from "./authenticate";
import type { JoinPlan } from "./build-sql";
import type { OutputColumns } from "../db/page-json.mjs";
import { isSecret } from "../schema/type-traits";

/** A join planned once per cached definition: its output columns (typed like their sources) and its SQL plan. */
export type JoinIndex = {
  join: JoinDef;
  /** Output columns: the source column's definition under the output name. */
  columns: ColumnDef[];
  byName: Map<string, ColumnDef>;
  aliases: { table: string; alias: string }[];
  plan: JoinPlan;
  /** FROM … JOIN … with extra ON predicates per alias (row policies of left-joined tables, see joinPolicies). */
  fromWith: (on: Map<string, RawBuilder<unknown>>) => RawBuilder<unknown>;
  output: OutputColumns;
  /** What JWT users get: password columns (bcrypt hashes) never reach a browser, as on table reads. */
  userOutput: OutputColumns;
};

const cache = new WeakMap<JoinDef, JoinIndex>();

/**
 * A joined table keyed on its id (or a unique column) adds at most one row per row before it, so its id
 * cannot break a tie and is left out of ORDER BY: the page then follows the base table's primary key.
 */
const matchesAtMostOne = (schema: DatabaseSchema, j: JoinDef["joins"][number]) =>
  j.on.some(([, own]) => {
    const column = resolveJoinRef(schema, own)?.column;
    return column !== undefined && (column.name === "id" || column.unique);
  });

export const indexJoin = (udb: UserDb, schema: DatabaseSchema, join: JoinDef): JoinIndex => {
  const cached = cache.get(join);
  if (cached) return cached;
  const aliases = [join.base, ...join.joins.map((j) => j.table)].map((table, i) => ({ table, alias: `t${i}` }));
  const aliasOf = new Map(aliases.map((a) => [a.table, a.alias]));
  const qualified = (ref: string) => sql.id(aliasOf.get(refTable(ref))!, refColumn(ref));
  const refs = new Map<ColumnDef, RawBuilder<unknown>>();
  const columns = join.columns.map(({ column, as }) => {
    const def: ColumnDef = { ...resolveJoinRef(schema, column)!.column, name: as };
    refs.set(def, qualified(column));
    return def;
  });
  const fromWith = (on: Map<string, RawBuilder<unknown>>) => {
    const joined = join.joins.map((j) => {
      const alias = aliasOf.get(j.table)!;
      const keys = j.on.map(([a, b]) => sql`${qualified(a)} = ${qualified(b)}`);
      const policy = on.get(alias);
      return sql` ${sql.raw(j.type === "left" ? "LEFT" : "INNER")} JOIN ${udb.table(j.table)} AS ${sql.id(alias)} ON ${sql.join(policy ? [...keys, policy] : keys, sql` AND `)}`;
    });
    return sql`${udb.table(join.base)} AS ${sql.id("t0")}${sql.join(joined, sql``)}`;
  };
  const index: JoinIndex = {
    join,
    columns,
    byName: new Map(columns.map((c) => [c.name, c])),
    aliases,
    plan: {
      select: sql.join(columns.map((c) => sql`${refs.get(c)!} AS ${sql.id(c.name)}`)),
      from: fromWith(new Map()),
      ref: (c) => refs.get(c) ?? sql.id(c.name),
      tieBreak: [sql.id("t0", "id"), ...join.joins.filter((j) => !matchesAtMostOne(schema, j)).map((j) => sql.id(aliasOf.get(j.table)!, "id"))],
    },
    fromWith,
    output: columns.map((c) => [c.name, c.type]),
    userOutput: [],
  };
  index.userOutput = index.output.filter(([, type]) => !isSecret(type));
  cache.set(join, index);
  return index;
};

/**
 * Row policies of every table in the join (RLS): one closed table closes the join. An inner-joined table's
 * policy filters the rows (WHERE); a left-joined table's joins only its visible rows (ON), so a hidden row
 * reads like a missing one: its columns are null. No caller = the owner.
 */
export const joinPolicies = (index: JoinIndex, schema: DatabaseSchema, caller?: Caller) => {
  const where: RawBuilder<unknown>[] = [];
  const on = new Map<string, RawBuilder<unknown>>();
  if (!caller) return { where, from: index.plan.from };
  index.aliases.forEach(({ table, alias }, i) => {
    const filter = rowFilter(caller, schema, table, "select", alias);
    if (filter === "deny") throw new ApiError("forbidden", `Table "${table}" in join "${index.join.name}" is not readable for you (no select policy).`);
    if (!filter) return;
    if (i > 0 && index.join.joins[i - 1].type === "left") on.set(alias, filter);
    else where.push(filter);
  });
  return { where, from: on.size ? index.fromWith(on) : index.plan.from };
};
