"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { ApiRequestError } from "../api/api-error";
import { lockedUnless } from "../api/can";
import { dataRequest } from "../api/data-client";
import type { DataRecord, Table } from "../api/types";
import { useDashboardKey } from "../api/use-dashboard-key";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { useRecordMutations, useRowCounts } from "../api/use-records";
import { PlusIcon } from "../icons";
import { TableList } from "../schema/table-list";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { buildQueryString, filterCount, nextSort, parseQueryString, queryableColumns, type RecordsQuery } from "./build-query";
import { BulkDelete } from "./bulk-delete";
import { ColumnToggle } from "./column-toggle";
import { CsvImportDialog } from "./csv-import-dialog";
import { LiveIndicator } from "./live-indicator";
import { useLiveRecords } from "./use-live-records";
import { exportCsv } from "./csv-transfer";
import { FilterBar } from "./filter-bar";
import { GridPaging } from "./grid-paging";
import { GroupSummary } from "./group-summary";
import { QueryBuilder } from "./query-builder";
import { QueryPreview } from "./query-preview";
import { QuickSearch, searchColumns, searchGroup } from "./quick-search";
import { FileKeyContext } from "./file-access";
import { RecordDialog } from "./record-dialog";
import { DeletedRecords } from "./record-history";
import { RecordsGrid } from "./records-grid";
import { expandedLabels, type ReadRows } from "./reference-display";
import { useGridPage } from "./use-grid-page";
import { MoreActions } from "./more-actions";
import { TablePicker } from "./table-picker";
import { ViewBar } from "./view-bar";

type Editing = { kind: "add" } | { kind: "edit"; record: DataRecord } | { kind: "delete"; records: DataRecord[] } | { kind: "import" } | { kind: "deleted" } | null;

const download = (name: string, text: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
};

/**
 * The grid's query lives in the page URL (`?table=…&q=<data API query>&search=…`), so reloads and links keep it.
 * The quick search is its own parameter: the filter builder never shows it as one of its groups.
 */
const useUrlQuery = (table: Table) => {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const text = params.get("q") ?? "";
  const hideText = params.get("hide") ?? "";
  const term = params.get("search") ?? "";
  const columns = useMemo(() => searchColumns(table), [table]);
  const query = useMemo(() => ({ ...parseQueryString(text, queryableColumns(table)), search: searchGroup(term, columns) }), [text, table, term, columns]);
  const hidden = useMemo(() => new Set(hideText.split(",").filter(Boolean)), [hideText]);
  const go = (q: string, hide: Iterable<string>, search = "") => {
    const url = new URLSearchParams({ table: table.name, q });
    const names = [...hide].join(",");
    if (names) url.set("hide", names);
    if (search) url.set("search", search);
    router.replace(`${pathname}?${url}`, { scroll: false });
  };
  const setQuery = (next: RecordsQuery) => go(buildQueryString({ ...next, search: undefined }), hidden, term);
  /** Hidden columns (`hide=a,b`), and a whole saved view: its query and hidden columns at once. */
  const setHidden = (next: Set<string>) => go(text, next, term);
  const setView = (q: string, hide: string[]) => go(q, hide);
  /** A new search starts at the first page. */
  const setSearch = (next: string) => go(buildQueryString({ ...query, search: undefined, offset: 0 }), hidden, next);
  return [query, setQuery, { hidden, setHidden, setView, search: { term, columns, setSearch } }] as const;
};

/** One table's records through the data API, with the user's own key and the API's own query grammar. */
const TableRecords = ({ instance, table, tables, apiKey, picker }: { instance: string; table: Table; tables: Table[]; apiKey: string; picker: ReactNode }) => {
  // The key acts with your role: a viewer's writes would be refused (403), so they are not offered.
  const access = useDatabaseAccess(instance);
  const writeLock = lockedUnless(access.write, "write");
  const [query, setQuery, { hidden, setHidden, setView, search }] = useUrlQuery(table);
  const [editing, setEditing] = useState<Editing>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [exporting, setExporting] = useState<string | null>(null);
  const queryString = buildQueryString(query);
  const builderString = buildQueryString({ ...query, search: undefined });
  const narrowed = filterCount(query) > 0 || !!query.search;
  const { records, cursor, pageQuery, filters, total } = useGridPage({ instance, table, queryString, hidden, apiKey });
  const [paused, setPaused] = useState(false);
  const live = useLiveRecords(instance, table.name, apiKey, paused);
  const { save, remove } = useRecordMutations(instance, table.name, apiKey);
  const read: ReadRows = useCallback((name, q) => dataRequest<DataRecord[]>(instance, `${encodeURIComponent(name)}?${q}`, apiKey), [instance, apiKey]);
  const rows = useMemo(() => records.data?.rows ?? [], [records.data]);
  const exists = useCallback(async (id: number) => (await read(table.name, `id=${id}&_limit=1`)).length > 0, [read, table.name]);
  const labels = useMemo(() => expandedLabels(table, tables, rows), [table, tables, rows]);
  const apply = (next: RecordsQuery) => {
    setSelected(new Set());
    setQuery(next);
  };
  const open = (next: Editing) => {
    save.reset();
    remove.reset();
    setEditing(next);
  };
  const runExport = async () => {
    setExporting("Exporting…");
    try {
      const { csv, count } = await exportCsv(table, query, (q) => read(table.name, q));
      download(`${table.name}.csv`, csv);
      setExporting(`Exported ${count} ${count === 1 ? "row" : "rows"}.`);
    } catch (err) {
      setExporting(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  // A 422 on the query belongs to the filter builder; anything else is a load error.
  const queryError = records.error instanceof ApiRequestError && records.error.status === 422 ? records.error : null;
  const chosen = rows.filter((r) => selected.has(r.id));
  const allColumns = ["id", ...table.columns.map((c) => c.name), "created_at", "updated_at"];

  return (
    <section className="min-w-0 flex-1 space-y-3 md:space-y-4" aria-label={`Data of ${table.name}`}>
      <div className="flex flex-wrap items-center justify-between gap-2 md:gap-3">
        <div className="flex min-w-0 items-baseline gap-3">
          {/* On a phone the table picker stands where the name is; the heading stays for screen readers. */}
          <div className="md:hidden">{picker}</div>
          <h2 className="sr-only font-mono text-lg font-semibold text-slate-900 md:not-sr-only">{table.name}</h2>
          {total !== null && (
            <p data-testid="row-count" className="text-sm text-slate-700 tabular-nums">
              {total.toLocaleString("en")} {total === 1 ? "record" : "records"}
              {narrowed ? " match" : ""}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <LiveIndicator state={live} paused={paused} onToggle={() => setPaused((p) => !p)} />
          {records.isFetching && <Spinner className="size-4 text-slate-600" />}
          {exporting && (
            <span role="status" className="text-xs text-slate-700">
              {exporting}
            </span>
          )}
          <div className="hidden items-center gap-2 md:flex">
            <Button size="sm" onClick={runExport}>
              Export CSV
            </Button>
            {table.history !== false && (
              <Button size="sm" onClick={() => open({ kind: "deleted" })}>
                Recently deleted
              </Button>
            )}
            <Button size="sm" onClick={() => open({ kind: "import" })} {...writeLock}>
              Import CSV
            </Button>
          </div>
          <div className="md:hidden">
            <MoreActions
              actions={[
                { label: "Export CSV", onSelect: runExport },
                ...(table.history !== false ? [{ label: "Recently deleted", onSelect: () => open({ kind: "deleted" }) }] : []),
                { label: "Import CSV", onSelect: () => open({ kind: "import" }), ...writeLock },
              ]}
            />
          </div>
          <Button variant="primary" size="sm" onClick={() => open({ kind: "add" })} {...writeLock}>
            <PlusIcon /> Add record
          </Button>
        </div>
      </div>
      <FilterBar
        active={filterCount(query) + query.sorts.length}
        search={search.columns.length > 0 && <QuickSearch term={search.term} columns={search.columns} onSearch={search.setSearch} />}
        tools={
          <>
            <ColumnToggle columns={allColumns} hidden={hidden} onChange={setHidden} />
            <ViewBar instance={instance} table={table.name} role={access.role} columns={allColumns} current={{ query: queryString, hidden: [...hidden] }} onApply={(v) => (setSelected(new Set()), setView(v.query, v.hidden_columns))} />
          </>
        }
      >
        <QueryBuilder key={`${table.name}?${builderString}`} columns={queryableColumns(table)} query={query} error={queryError} references={{ tables, read }} onApply={apply} />
        <QueryPreview instance={instance} table={table.name} queryString={pageQuery} apiKey={apiKey} />
      </FilterBar>
      <GroupSummary instance={instance} table={table} tables={tables} filters={filters} apiKey={apiKey} read={read} />
      {!writeLock.disabled && chosen.length > 0 && (
        <div className="flex items-center gap-3 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
          <span>{chosen.length} selected</span>
          <Button size="sm" variant="danger" onClick={() => open({ kind: "delete", records: chosen })}>
            Delete selected
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </div>
      )}
      {records.isLoading ? (
        <LoadingState label="Loading records…" />
      ) : records.error && !queryError ? (
        <ErrorState error={records.error} title="Could not load records" onRetry={() => records.refetch()} />
      ) : queryError ? (
        <p className="text-sm text-red-700">The API refused this query: {queryError.message} Fix the filter marked above.</p>
      ) : rows.length === 0 ? (
        <EmptyState title={narrowed ? "No records match these filters" : `${table.name} has no records yet`}>
          {narrowed ? "Change or clear the search and filters." : "Add one here, import a CSV, or POST one to the API (try it from the API Docs tab)."}
        </EmptyState>
      ) : (
        <RecordsGrid
          table={table}
          rows={rows}
          hidden={hidden}
          labels={labels}
          sorts={query.sorts}
          onSort={(column) => apply({ ...query, sorts: nextSort(query.sorts, column), offset: 0 })}
          actions={
            writeLock.disabled
              ? undefined
              : {
                  edit: (record) => open({ kind: "edit", record }),
                  remove: (record) => open({ kind: "delete", records: [record] }),
                  patch: (id, body) => save.mutateAsync({ id, body }),
                  selected,
                  references: { tables, read },
                  exists,
                  onSelect: (ids, on) => setSelected((s) => new Set(on ? [...s, ...ids] : [...s].filter((x) => !ids.includes(x)))),
                }
          }
        />
      )}
      {records.data && (
        <GridPaging
          query={query}
          page={records.data}
          loading={records.isPlaceholderData}
          cursor={cursor}
          total={total}
          onQuery={apply}
          onCursor={() => setSelected(new Set())}
        />
      )}

      {(editing?.kind === "add" || editing?.kind === "edit") && (
        <RecordDialog
          table={table}
          tables={tables}
          record={editing.kind === "edit" ? editing.record : undefined}
          labels={labels}
          read={read}
          save={save}
          history={{ instance, apiKey }}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === "deleted" && (
        <DeletedRecords instance={instance} table={table.name} apiKey={apiKey} canRestore={!writeLock.disabled} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === "import" && (
        <CsvImportDialog
          table={table}
          post={(bodies) => dataRequest(instance, encodeURIComponent(table.name), apiKey, { method: "POST", body: bodies })}
          read={read}
          onClose={() => setEditing(null)}
          onImported={() => records.refetch()}
        />
      )}
      <BulkDelete
        table={table.name}
        records={editing?.kind === "delete" ? editing.records : []}
        remove={(id) => remove.mutateAsync(id)}
        onClose={() => setEditing(null)}
        onDeleted={(ids) => setSelected((s) => new Set([...s].filter((x) => !ids.includes(x))))}
      />
    </section>
  );
};

/** The Data tab: pick a table, browse and edit its records. */
export const DataBrowser = ({ instance }: { instance: string }) => {
  const params = useSearchParams();
  const database = useDatabase(instance);
  const dashboardKey = useDashboardKey();
  const tables = database.data?.tables ?? [];
  const table = tables.find((t) => t.name === params.get("table")) ?? tables[0];
  const counts = useRowCounts(instance, tables.map((t) => t.name), dashboardKey.key?.key);
  if (!database.data) return null;
  if (!table) return <EmptyState title="No tables yet">Add a table in the Schema tab; its records show up here.</EmptyState>;
  const picker = <TablePicker tables={tables} selected={table.name} basePath={`/databases/${instance}/data`} counts={counts.data ?? {}} />;
  return (
    <div className="flex flex-col gap-5 md:flex-row">
      <div className="hidden shrink-0 md:block">
        <TableList tables={tables} selected={table.name} basePath={`/databases/${instance}/data`} counts={counts.data ?? {}} />
      </div>
      {dashboardKey.error ? (
        <ErrorState error={dashboardKey.error} title="Could not get an API key for the data browser" onRetry={() => dashboardKey.refetch()} />
      ) : !dashboardKey.key ? (
        <LoadingState label="Getting your API key…" />
      ) : (
        // File cells and fields download with the same key (links and <img> cannot send it themselves).
        <FileKeyContext value={dashboardKey.key.key}>
          <TableRecords key={table.name} instance={instance} table={table} tables={tables} apiKey={dashboardKey.key.key} picker={picker} />
        </FileKeyContext>
      )}
    </div>
  );
};
