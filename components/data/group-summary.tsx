"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Column, Table } from "../api/types";
import { useAggregate } from "../api/use-records";
import { SelectInput } from "../ui/field";
import { Spinner } from "../ui/spinner";
import { ErrorState } from "../ui/states";
import { aggregateQuery, defaultGroupColumn, GROUP_LIMIT, groupableColumns, summableColumns } from "./group-summary-query";
import { cellText } from "./record-values";
import { displayColumnOf, type ReadRows } from "./reference-display";
import { isReference, scaleOf } from "@/lib/schema/type-traits";

type Props = { instance: string; table: Table; tables: Table[]; filters: string; apiKey: string; read: ReadRows };
type Group = Record<string, unknown>;

/** Counts as whole numbers, sums of decimals at the column's scale. */
const number = (v: unknown, scale = 0) => (typeof v === "number" ? v.toLocaleString("en-US", { minimumFractionDigits: scale, maximumFractionDigits: Math.max(scale, 4) }) : "—");

/** Names of the referenced rows a reference group stands for: one `id_in` read for the groups shown. */
const useGroupLabels = ({ instance, column, tables, groups, read }: { instance: string; column?: Column; tables: Table[]; groups: Group[]; read: ReadRows }) => {
  const ids = column && isReference(column) ? groups.map((g) => g[column.name]).filter((v): v is number => typeof v === "number") : [];
  const target = tables.find((t) => t.name === column?.references);
  const display = displayColumnOf(target);
  return useQuery({
    queryKey: ["group-labels", instance, target?.name, ids.join(",")],
    enabled: ids.length > 0 && !!target,
    queryFn: async () => {
      const rows = await read(target!.name, `id_in=${ids.join(",")}&_limit=${ids.length}`);
      return new Map(rows.map((r) => [r.id, r[display] == null ? `#${r.id}` : String(r[display])]));
    },
  }).data;
};

const GroupValue = ({ column, value, labels }: { column: Column; value: unknown; labels?: Map<number, string> }) => {
  if (value === null || value === undefined) return <span className="text-slate-600 italic">empty</span>;
  if (!isReference(column) || typeof value !== "number") return <>{cellText(column, value)}</>;
  return (
    <span className="inline-flex items-baseline gap-1.5">
      {labels?.get(value) !== undefined && <span>{labels.get(value)}</span>}
      <span className="text-xs text-slate-600 tabular-nums">#{value}</span>
    </span>
  );
};

/**
 * Above the grid, folded by default: rows per value of a chosen column, and the sum of a number column per
 * value, over the rows the grid's filters match (`GET /{table}/_aggregate`); live changes refresh it.
 */
export const GroupSummary = ({ instance, table, tables, filters, apiKey, read }: Props) => {
  const [open, setOpen] = useState(false);
  const groupable = groupableColumns(table);
  const summable = summableColumns(table);
  const [groupName, setGroupName] = useState(defaultGroupColumn(table));
  const [sumName, setSumName] = useState(summable[0]?.name ?? "");
  const group = groupable.find((c) => c.name === groupName);
  const summary = useAggregate(instance, table.name, group ? aggregateQuery({ filters, group: group.name, sum: sumName || undefined }) : "", apiKey, open && !!group);
  const groups = (summary.data ?? []).slice(0, GROUP_LIMIT);
  const labels = useGroupLabels({ instance, column: group, tables, groups, read });
  const most = Math.max(1, ...groups.map((g) => Number(g.count)));
  if (!groupable.length) return null;
  return (
    <section aria-label={`Summary of ${table.name}`} className="rounded-lg border border-slate-200 bg-white shadow-xs">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="group-summary"
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-1.5 rounded-lg px-3 py-2 text-left text-xs font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <span aria-hidden>{open ? "▾" : "▸"}</span>
        <span>
          Summary by column
          {open && group && <span className="font-normal text-slate-600">: rows{sumName && ` and sum of ${sumName}`} per {group.name}</span>}
        </span>
        {summary.isFetching && <Spinner className="ml-auto size-3.5 text-slate-600" />}
      </button>
      {open && (
        <div id="group-summary" className="space-y-3 border-t border-slate-200 px-3 py-3 text-sm">
          <div className="flex flex-wrap items-center gap-3">
            <label className="flex items-center gap-2 whitespace-nowrap text-slate-700">
              Group by
              <SelectInput className="w-40" value={groupName} onChange={(e) => setGroupName(e.target.value)}>
                {groupable.map((c) => (
                  <option key={c.name}>{c.name}</option>
                ))}
              </SelectInput>
            </label>
            <label className="flex items-center gap-2 whitespace-nowrap text-slate-700">
              Sum of
              <SelectInput className="w-40" value={sumName} onChange={(e) => setSumName(e.target.value)}>
                <option value="">(no sum)</option>
                {summable.map((c) => (
                  <option key={c.name}>{c.name}</option>
                ))}
              </SelectInput>
            </label>
            {filters && <span className="text-xs text-slate-600">Over the rows the grid's filters match.</span>}
          </div>
          {summary.error ? (
            <ErrorState error={summary.error} title="Could not summarise" onRetry={() => summary.refetch()} />
          ) : group && summary.data ? (
            <SummaryTable group={group} sum={summable.find((c) => c.name === sumName)} groups={groups} labels={labels} most={most} more={summary.data.length > GROUP_LIMIT} />
          ) : null}
        </div>
      )}
    </section>
  );
};

type TableProps = { group: Column; sum?: Column; groups: Group[]; labels?: Map<number, string>; most: number; more: boolean };

const SummaryTable = ({ group, sum, groups, labels, most, more }: TableProps) => (
  <div className="overflow-x-auto">
    <table className="min-w-full text-sm" aria-label={`Rows per ${group.name}`}>
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs text-slate-700">
          <th scope="col" className="py-1 pr-4 font-mono font-medium">{group.name}</th>
          <th scope="col" className="py-1 pr-4 text-right font-medium">Rows</th>
          <th scope="col" className="w-1/3 py-1 pr-4 font-medium"><span className="sr-only">Share</span></th>
          {sum && (
            <th scope="col" className="py-1 text-right font-medium">
              Sum of <span className="font-mono">{sum.name}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {groups.length === 0 && (
          <tr>
            <td colSpan={4} className="py-2 text-slate-600">No rows to summarise.</td>
          </tr>
        )}
        {groups.map((g, i) => (
          <tr key={i}>
            <td className="py-1 pr-4 text-slate-800"><GroupValue column={group} value={g[group.name]} labels={labels} /></td>
            <td className="py-1 pr-4 text-right text-slate-900 tabular-nums">{number(g.count)}</td>
            <td className="py-1 pr-4" aria-hidden>
              <span className="block h-2 rounded-full bg-indigo-500" style={{ width: `${(Number(g.count) / most) * 100}%` }} />
            </td>
            {sum && <td className="py-1 text-right text-slate-900 tabular-nums">{number(g[`sum_${sum.name}`], scaleOf(sum) ?? 0)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
    {more && <p className="mt-2 text-xs text-slate-600">The {GROUP_LIMIT} largest groups; smaller ones are not shown.</p>}
  </div>
);
