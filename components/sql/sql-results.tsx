"use client";
import { useMemo, useState } from "react";
import type { DataRecord } from "../api/types";
import type { SqlAnswer } from "../api/use-sql";
import type { Sort } from "../data/build-query";
import { RecordsGrid } from "../data/records-grid";
import { resultColumns, type ServerColumnTypes } from "./result-columns";

/** Repeated names (`SELECT n, n`) get a suffix, so each cell keeps its own column in the grid. */
const uniqueNames = (names: string[]) => {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const count = (seen.get(n) ?? 0) + 1;
    seen.set(n, count);
    return count === 1 ? n : `${n} (${count})`;
  });
};

/** The grid's own key of a result row: a symbol, so no column name (`id` included) can reach or overwrite it. */
const ROW = Symbol("result row");
type ResultRow = Record<string, unknown> & { [ROW]: number };

const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === null || a === undefined ? -1 : b === null || b === undefined ? 1 : a < b ? -1 : 1);

/** The console's answer in the data grid (read-only); header clicks sort the rows here, not on the server. */
export const SqlResults = ({ answer }: { answer: SqlAnswer & ServerColumnTypes }) => {
  const [sort, setSort] = useState<Sort | undefined>();
  const names = useMemo(() => uniqueNames(answer.columns), [answer.columns]);
  const columns = useMemo(() => resultColumns(names, answer.rows, answer.column_types), [names, answer.rows, answer.column_types]);
  const rows = useMemo(() => {
    const records = answer.rows.map((r, i): ResultRow => ({ ...Object.fromEntries(names.map((n, ci) => [n, r[ci]])), [ROW]: i }));
    if (!sort) return records;
    const sorted = [...records].sort((a, b) => compare(a[sort.column], b[sort.column]));
    return sort.desc ? sorted.reverse() : sorted;
  }, [answer.rows, names, sort]);
  return (
    <section aria-label="Query result" className="space-y-2">
      <p className="text-sm text-slate-700" data-testid="sql-summary">
        {answer.rows.length} {answer.rows.length === 1 ? "row" : "rows"} in {answer.ms} ms
        {answer.truncated && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">{answer.truncated_reason === "bytes" ? "only the rows that fit in 4 MB are shown" : "only the first 1,000 rows are shown"}</span>}
      </p>
      {answer.columns.length === 0 ? null : (
        <RecordsGrid
          table={{ name: "query result", columns: [] }}
          columns={columns}
          // Read-only rows keyed by ROW: the grid reads cells by column name and never their `id`.
          rows={rows as unknown as DataRecord[]}
          rowKey={(r) => (r as unknown as ResultRow)[ROW]}
          labels={{}}
          sorts={sort ? [sort] : []}
          onSort={(column) => setSort((s) => (s?.column === column ? (s.desc ? undefined : { column, desc: true }) : { column, desc: false }))}
        />
      )}
    </section>
  );
};
