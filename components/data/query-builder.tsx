"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { MAX_OR_GROUPS } from "@/lib/schema/filter-operators";
import { draftKey } from "../schema/column-draft";
import { Button } from "../ui/button";
import { SelectInput } from "../ui/field";
import { type Filter, type FilterGroup, paramName, type QueryColumn, type RecordsQuery, type Sort } from "./build-query";
import { FilterRow, type FilterReferences } from "./filter-row";

type Props = {
  columns: QueryColumn[];
  query: RecordsQuery;
  error: unknown;
  /** When given, `=` and `≠` on a reference column pick the row with the record form's search picker. */
  references?: FilterReferences;
  onApply: (q: RecordsQuery) => void;
};

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

type FilterListProps = {
  filters: Filter[];
  columns: QueryColumn[];
  errors: Record<string, string>;
  /** How the API names a filter's errors. */
  at: (f: Filter) => string;
  joiner?: string;
  references?: FilterReferences;
  onChange: (filters: Filter[]) => void;
};

/** Rows of filters; in an OR group each row after the first says "or". */
const FilterList = ({ filters, columns, errors, at, joiner, references, onChange }: FilterListProps) => (
  <>
    {filters.map((f, i) => (
      <div key={f.key} className="flex items-start gap-2">
        {joiner && <span className="w-6 pt-2 text-xs font-semibold text-indigo-700 uppercase">{i > 0 ? joiner : ""}</span>}
        <FilterRow
          filter={f}
          columns={columns}
          error={errors[at(f)]}
          references={references}
          onChange={(next) => onChange(filters.map((x) => (x.key === f.key ? next : x)))}
          onRemove={() => onChange(filters.filter((x) => x.key !== f.key))}
        />
      </div>
    ))}
  </>
);

const newFilter = (column: string): Filter => ({ key: draftKey(), column, op: "eq", value: "" });

type GroupProps = {
  group: FilterGroup;
  number: number;
  columns: QueryColumn[];
  errors: Record<string, string>;
  references?: FilterReferences;
  onChange: (g: FilterGroup) => void;
  onRemove: () => void;
};

/** One OR group: any of its filters matches; the whole group is ANDed with the other filters (`_or=` in the API). */
const OrGroupBox = ({ group, number, columns, errors, references, onChange, onRemove }: GroupProps) => {
  const at = `_or[${number - 1}]`;
  return (
    <fieldset className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50 p-3" aria-label={`OR group ${number}`}>
      <legend className="px-1 text-xs font-semibold text-indigo-800">OR group {number}: any of these</legend>
      <FilterList filters={group.filters} columns={columns} errors={errors} at={(f) => `${at}.${paramName(f)}`} joiner="or" references={references} onChange={(filters) => onChange({ ...group, filters })} />
      {errors[at] && <p role="alert" className="field-error text-xs text-red-600">{errors[at]}</p>}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => onChange({ ...group, filters: [...group.filters, newFilter(columns[0]?.name ?? "id")] })}>
          + Add OR condition
        </Button>
        <Button size="sm" variant="ghost" onClick={onRemove}>
          Remove group {number}
        </Button>
      </div>
    </fieldset>
  );
};

/** Filters, OR groups and sort, edited as a draft and applied together (the grid then sends exactly that query). */
export const QueryBuilder = ({ columns, query, error, references, onApply }: Props) => {
  const [filters, setFilters] = useState<Filter[]>(query.filters);
  const [groups, setGroups] = useState<FilterGroup[]>(query.groups);
  const [sorts, setSorts] = useState<Sort[]>(query.sorts);
  const errors = fieldErrors(error);
  const first = columns[0]?.name ?? "id";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...query, filters, groups, sorts, offset: 0 });
  };
  const clear = () => {
    setFilters([]);
    setGroups([]);
    setSorts([]);
    onApply({ ...query, filters: [], groups: [], sorts: [], offset: 0 });
  };
  const addGroup = () => setGroups([...groups, { key: draftKey(), filters: [newFilter(first), newFilter(first)] }]);
  const empty = !filters.length && !groups.length && !sorts.length && !query.filters.length && !query.groups.length && !query.sorts.length;
  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs" aria-label="Filters and sort">
      <div className="space-y-2">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Filters</p>
        {filters.length === 0 && groups.length === 0 && <p className="text-sm text-slate-500">No filters: every record.</p>}
        <FilterList filters={filters} columns={columns} errors={errors} at={paramName} references={references} onChange={setFilters} />
        {groups.map((g, i) => (
          <OrGroupBox
            key={g.key}
            group={g}
            number={i + 1}
            columns={columns}
            errors={errors}
            references={references}
            onChange={(next) => setGroups(groups.map((x) => (x.key === g.key ? next : x)))}
            onRemove={() => setGroups(groups.filter((x) => x.key !== g.key))}
          />
        ))}
        {errors._or && <p role="alert" className="field-error text-xs text-red-600">{errors._or}</p>}
        {(filters.length > 0 || groups.length > 0) && <p className="text-xs text-slate-500">Records must match every filter and, in each OR group, at least one condition.</p>}
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setFilters([...filters, newFilter(first)])}>
            + Add filter
          </Button>
          <Button size="sm" onClick={addGroup} disabled={groups.length >= MAX_OR_GROUPS}>
            + Add OR group
          </Button>
        </div>
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
        <Button size="sm" variant="ghost" onClick={clear} disabled={empty}>
          Clear
        </Button>
      </div>
    </form>
  );
};
