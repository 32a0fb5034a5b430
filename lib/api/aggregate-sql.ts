// SQL of `/_aggregate` reads, part of the one SQL builder (identifiers through sql.id, values bound).
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef } from "../schema/types";
import { type ColumnRef, sortKey, whereSql } from "./build-sql";
import type { Aggregate, AggregateQuery } from "./parse-aggregate";

type Fragment = RawBuilder<unknown>;

/**
 * MariaDB's utf8mb4_bin is PAD SPACE ("a" = "a "), SQLite compares bytes: text groups and distinct counts go by
 * the bytes (BINARY) on MySQL, so both engines find the same groups; the group's value is then MIN() of equals.
 */
const byBytes = (udb: UserDb, column: ColumnDef) => udb.engine === "mysql" && TYPE_SPECS[column.type].sort === "text";
const groupKey = (udb: UserDb, column: ColumnDef, ref: ColumnRef) => (byBytes(udb, column) ? sql`BINARY ${ref(column)}` : ref(column));
const groupValue = (udb: UserDb, column: ColumnDef, ref: ColumnRef) => (byBytes(udb, column) ? sql`MIN(${ref(column)})` : ref(column));

/** What is selected per aggregate; `avg` selects its sum (and its count as `_n{i}`) so both engines divide alike. */
const aggregateValue = (udb: UserDb, { fn, column }: Aggregate, ref: ColumnRef): Fragment => {
  if (!column) return sql`COUNT(*)`;
  const col = ref(column);
  switch (fn) {
    case "count":
      return sql`COUNT(${col})`;
    case "count_distinct":
      return sql`COUNT(DISTINCT ${groupKey(udb, column, ref)})`;
    case "sum":
    case "avg":
      return sql`SUM(${col})`;
    case "min":
      return sql`MIN(${col})`;
    case "max":
      return sql`MAX(${col})`;
  }
};

const sortExpression = (udb: UserDb, q: AggregateQuery, name: string, ref: ColumnRef): Fragment => {
  const group = q.group.find((g) => g.name === name);
  if (group) return sortKey(udb, group, () => groupValue(udb, group, ref));
  const aggregate = q.aggregates.find((a) => a.name === name)!;
  return aggregate.fn === "avg" ? sql`AVG(${ref(aggregate.column!)})` : aggregateValue(udb, aggregate, ref);
};

/** The requested order (groups by default), then the group keys so equal sort values still order alike. */
const aggregateOrder = (udb: UserDb, q: AggregateQuery, ref: ColumnRef): Fragment => {
  if (q.group.length === 0) return sql``;
  const sort = q.sort.length ? q.sort : q.group.map((g) => ({ name: g.name, desc: false }));
  const parts = sort.map((s) => sql`${sortExpression(udb, q, s.name, ref)} ${sql.raw(s.desc ? "DESC" : "ASC")}`);
  parts.push(...q.group.map((g) => sql`${groupKey(udb, g, ref)} ASC`));
  return sql` ORDER BY ${sql.join(parts)}`;
};

export const aggregateSql = (udb: UserDb, source: { from: Fragment; ref: ColumnRef }, q: AggregateQuery, extra: Fragment[]) => {
  const { ref } = source;
  const select = [
    ...q.group.map((g) => sql`${groupValue(udb, g, ref)} AS ${sql.id(g.name)}`),
    ...q.aggregates.map((a) => sql`${aggregateValue(udb, a, ref)} AS ${sql.id(a.name)}`),
    ...q.aggregates.flatMap((a, i) => (a.fn === "avg" ? [sql`COUNT(${ref(a.column!)}) AS ${sql.id(`_n${i}`)}`] : [])),
  ];
  const groupBy = q.group.length ? sql` GROUP BY ${sql.join(q.group.map((g) => groupKey(udb, g, ref)))}` : sql``;
  return sql`SELECT ${sql.join(select)} FROM ${source.from}${whereSql(udb, q.filters, extra, ref)}${groupBy}${aggregateOrder(udb, q, ref)} LIMIT ${q.limit} OFFSET ${q.offset}`;
};
