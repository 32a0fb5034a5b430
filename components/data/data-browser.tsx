"use client";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { ApiRequestError } from "../api/api-error";
import { lockedUnless } from "../api/can";
import type { DataRecord, Table } from "../api/types";
import { useDashboardKey } from "../api/use-dashboard-key";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { useRecordMutations, useRecords } from "../api/use-records";
import { PlusIcon } from "../icons";
import { TableList } from "../schema/table-list";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Spinner } from "../ui/spinner";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { buildQueryString, EMPTY_QUERY, queryableColumns, type RecordsQuery } from "./build-query";
import { Pagination } from "./pagination";
import { QueryBuilder } from "./query-builder";
import { QueryPreview } from "./query-preview";
import { RecordDialog } from "./record-dialog";
import { RecordsGrid } from "./records-grid";

type Editing = { kind: "add" } | { kind: "edit"; record: DataRecord } | { kind: "delete"; record: DataRecord } | null;

/** One table's records through the data API, with the user's own key and the API's own query grammar. */
const TableRecords = ({ instance, table, apiKey }: { instance: string; table: Table; apiKey: string }) => {
  // The key acts with your role: a viewer's writes would be refused (403), so they are not offered.
  const writeLock = lockedUnless(useDatabaseAccess(instance).write, "write");
  const [query, setQuery] = useState<RecordsQuery>(EMPTY_QUERY);
  const [editing, setEditing] = useState<Editing>(null);
  const queryString = buildQueryString(query);
  const records = useRecords(instance, table.name, queryString, apiKey);
  const { save, remove } = useRecordMutations(instance, table.name, apiKey);
  const open = (next: Editing) => {
    save.reset();
    remove.reset();
    setEditing(next);
  };
  // A 422 on the query belongs to the filter builder; anything else is a load error.
  const queryError = records.error instanceof ApiRequestError && records.error.status === 422 ? records.error : null;

  return (
    <section className="min-w-0 flex-1 space-y-4" aria-label={`Data of ${table.name}`}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="font-mono text-lg font-semibold text-slate-900">{table.name}</h2>
        <div className="flex items-center gap-3">
          {records.isFetching && <Spinner className="size-4 text-slate-400" />}
          <Button variant="primary" size="sm" onClick={() => open({ kind: "add" })} {...writeLock}>
            <PlusIcon /> Add record
          </Button>
        </div>
      </div>
      <QueryBuilder key={table.name} columns={queryableColumns(table)} query={query} error={queryError} onApply={setQuery} />
      <QueryPreview instance={instance} table={table.name} queryString={queryString} />
      {records.isLoading ? (
        <LoadingState label="Loading records…" />
      ) : records.error && !queryError ? (
        <ErrorState error={records.error} title="Could not load records" onRetry={() => records.refetch()} />
      ) : queryError ? (
        <p className="text-sm text-red-700">The API refused this query: {queryError.message} Fix the filter marked above.</p>
      ) : records.data?.rows.length === 0 ? (
        <EmptyState title={query.filters.length ? "No records match these filters" : `${table.name} has no records yet`}>
          {query.filters.length ? "Change or clear the filters." : "Add one here, or POST one to the API (try it from the API Docs tab)."}
        </EmptyState>
      ) : (
        <RecordsGrid
          table={table}
          rows={records.data?.rows ?? []}
          actions={writeLock.disabled ? undefined : { edit: (record) => open({ kind: "edit", record }), remove: (record) => open({ kind: "delete", record }) }}
        />
      )}
      {records.data && (
        <Pagination offset={query.offset} limit={query.limit} shown={records.data.rows.length} total={records.data.total} onChange={(page) => setQuery({ ...query, ...page })} />
      )}

      {(editing?.kind === "add" || editing?.kind === "edit") && (
        <RecordDialog table={table} record={editing.kind === "edit" ? editing.record : undefined} save={save} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        open={editing?.kind === "delete"}
        onClose={() => setEditing(null)}
        title={editing?.kind === "delete" ? `Delete ${table.name} #${editing.record.id}?` : ""}
        consequences={<p>The record is removed for good. If other records still reference it, the API refuses (409) and nothing changes.</p>}
        confirmLabel="Delete record"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => editing?.kind === "delete" && remove.mutate(editing.record.id, { onSuccess: () => setEditing(null) })}
      />
    </section>
  );
};

/** The Data tab: pick a table, browse and edit its records. */
export const DataBrowser = ({ instance }: { instance: string }) => {
  const params = useSearchParams();
  const database = useDatabase(instance);
  const dashboardKey = useDashboardKey(instance);
  const tables = database.data?.tables ?? [];
  const table = tables.find((t) => t.name === params.get("table")) ?? tables[0];
  if (!database.data) return null;
  if (!table) return <EmptyState title="No tables yet">Add a table in the Schema tab; its records show up here.</EmptyState>;
  return (
    <div className="flex gap-5">
      <TableList tables={tables} selected={table.name} basePath={`/databases/${instance}/data`} />
      {dashboardKey.error ? (
        <ErrorState error={dashboardKey.error} title="Could not get an API key for the data browser" onRetry={() => dashboardKey.refetch()} />
      ) : !dashboardKey.key ? (
        <LoadingState label="Getting your API key…" />
      ) : (
        <TableRecords key={table.name} instance={instance} table={table} apiKey={dashboardKey.key.key} />
      )}
    </div>
  );
};
