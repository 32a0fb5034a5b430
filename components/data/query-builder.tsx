"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { draftKey } from "../schema/column-draft";
import { Button } from "../ui/button";
import { SelectInput } from "../ui/field";
import { type Filter, paramName, type QueryColumn, type RecordsQuery, type Sort } from "./build-query";
import { FilterRow } from "./filter-row";

type Props = { columns: QueryColumn[]; query: RecordsQuery; error: unknown; onApply: (q: RecordsQuery) => void };

const SortRow = ({ sort, columns, onChange, onRemove }: { sort: Sort; columns: QueryColumn[]; onChange: (s: Sort) => void; onRemove: () => void }) => (
  <div className="flex flex-wrap items-center gap-2">
    <SelectInput aria-label="Sort column" className="w-40" value={sort.column} onChange={(e) => onChange({ ...sort, column: e.target.value })}>
      {columns.map((c) => (
        <option key={c.name}>{c.name}</option>
      ))}
    </SelectInput>
    <SelectInput aria-label="Sort direction" className="w-48" value={sort.desc ? "desc" : "asc"} onChange={(e) => onChange({ ...sort, desc: e.target.value === "desc" })}>
      <option value="asc">ascending</option>
      <option value="desc">descending</option>
    </SelectInput>
    <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove sort on ${sort.column}`}>
      ×
    </Button>
  </div>
);

/** Filters and sort, edited as a draft and applied together (the grid then sends exactly that query). */
export const QueryBuilder = ({ columns, query, error, onApply }: Props) => {
  const [filters, setFilters] = useState<Filter[]>(query.filters);
  const [sorts, setSorts] = useState<Sort[]>(query.sorts);
  const errors = fieldErrors(error);
  const first = columns[0]?.name ?? "id";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...query, filters, sorts, offset: 0 });
  };
  const clear = () => {
    setFilters([]);
    setSorts([]);
    onApply({ ...query, filters: [], sorts: [], offset: 0 });
  };
  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs" aria-label="Filters and sort">
      <div className="space-y-2">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Filters</p>
        {filters.length === 0 && <p className="text-sm text-slate-500">No filters: every record.</p>}
        {filters.map((f) => (
          <FilterRow
            key={f.key}
            filter={f}
            columns={columns}
            error={errors[paramName(f)]}
            onChange={(next) => setFilters(filters.map((x) => (x.key === f.key ? next : x)))}
            onRemove={() => setFilters(filters.filter((x) => x.key !== f.key))}
          />
        ))}
        <Button size="sm" onClick={() => setFilters([...filters, { key: draftKey(), column: first, op: "eq", value: "" }])}>
          + Add filter
        </Button>
      </div>
      <div className="space-y-2">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Sort</p>
        {sorts.length === 0 && <p className="text-sm text-slate-500">By id, ascending.</p>}
        {sorts.map((s, i) => (
          <SortRow
            key={i}
            sort={s}
            columns={columns}
            onChange={(next) => setSorts(sorts.map((x, j) => (j === i ? next : x)))}
            onRemove={() => setSorts(sorts.filter((_, j) => j !== i))}
          />
        ))}
        {errors._sort && <p role="alert" className="field-error text-xs text-red-600">{errors._sort}</p>}
        <Button size="sm" onClick={() => setSorts([...sorts, { column: first, desc: false }])}>
          + Add sort
        </Button>
      </div>
      <div className="flex gap-2 border-t border-slate-100 pt-3">
        <Button type="submit" variant="primary" size="sm">
          Apply
        </Button>
        <Button size="sm" variant="ghost" onClick={clear} disabled={!filters.length && !sorts.length && !query.filters.length && !query.sorts.length}>
          Clear
        </Button>
      </div>
    </form>
  );
};
