"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { lockedUnless } from "../api/can";
import type { Column } from "../api/types";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { useDropTable } from "../api/use-schema-mutations";
import { PlusIcon } from "../icons";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { EmptyState } from "../ui/states";
import { AddColumnsDialog } from "./add-columns-dialog";
import { AddTableDialog } from "./add-table-dialog";
import { ColumnDialog } from "./column-dialog";
import { ColumnsGrid } from "./columns-grid";
import { IndexesPanel } from "./indexes-panel";
import { RenameTableDialog } from "./rename-table-dialog";
import { TableList } from "./table-list";

type Editing = { kind: "add-column" } | { kind: "edit-column"; column: Column } | { kind: "rename" } | { kind: "drop" } | null;

/** The Schema tab: tables on the left, the selected table's columns on the right; every change applies at once. */
export const SchemaEditor = ({ instance }: { instance: string }) => {
  const router = useRouter();
  const params = useSearchParams();
  const database = useDatabase(instance);
  const writeLock = lockedUnless(useDatabaseAccess(instance).write, "write");
  const [addingTable, setAddingTable] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const tables = database.data?.tables ?? [];
  const table = tables.find((t) => t.name === params.get("table")) ?? tables[0];
  const drop = useDropTable(instance, table?.name ?? "");
  const addTableButton = (
    <Button size="sm" onClick={() => setAddingTable(true)} {...writeLock}>
      <PlusIcon /> Add table
    </Button>
  );
  const addTableDialog = <AddTableDialog instance={instance} tables={tables.map((t) => t.name)} open={addingTable} onClose={() => setAddingTable(false)} />;

  if (!database.data) return null;
  if (!table) {
    return (
      <>
        <EmptyState title="This database has no tables yet" action={addTableButton}>
          Add a table, then its columns. Each table gets REST endpoints and docs the moment it exists.
        </EmptyState>
        {addTableDialog}
      </>
    );
  }
  const names = tables.map((t) => t.name);
  return (
    <div className="flex flex-col gap-5 md:flex-row">
      <TableList tables={tables} selected={table.name} basePath={`/databases/${instance}/schema`} footer={addTableButton} />
      <section className="min-w-0 flex-1 space-y-4" aria-label={`Table ${table.name}`}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="font-mono text-lg font-semibold text-slate-900">{table.name}</h2>
            <p className="text-sm text-slate-600">
              {table.columns.length + 3} columns · endpoints <code className="font-mono text-xs">/v1/{instance}/{table.name}</code> and{" "}
              <code className="font-mono text-xs">/{table.name}/{"{id}"}</code>
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => setEditing({ kind: "rename" })} {...writeLock}>
              Rename
            </Button>
            <Button size="sm" onClick={() => setEditing({ kind: "drop" })} className="text-red-600" {...writeLock}>
              Delete table
            </Button>
            <Button size="sm" variant="primary" onClick={() => setEditing({ kind: "add-column" })} {...writeLock}>
              <PlusIcon /> Add columns
            </Button>
          </div>
        </div>
        <ColumnsGrid instance={instance} table={table} onEdit={writeLock.disabled ? undefined : (column) => setEditing({ kind: "edit-column", column })} />
        {table.columns.length === 0 && <p className="text-sm text-slate-500">Only the automatic columns so far. Add the columns your records need.</p>}
        <IndexesPanel key={table.name} instance={instance} table={table} editable={!writeLock.disabled} />
      </section>

      {addTableDialog}
      {editing?.kind === "add-column" && <AddColumnsDialog instance={instance} table={table.name} tables={names} onClose={() => setEditing(null)} />}
      {editing?.kind === "edit-column" && (
        <ColumnDialog key={editing.column.name} instance={instance} table={table.name} tables={names} column={editing.column} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === "rename" && <RenameTableDialog instance={instance} table={table.name} open onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={editing?.kind === "drop"}
        onClose={() => {
          setEditing(null);
          drop.reset();
        }}
        title={`Delete table ${table.name}?`}
        consequences={
          <>
            <p>Every row of {table.name} is deleted for good, and its endpoints disappear: apps calling them get 404.</p>
            <p>A table other tables still reference cannot be deleted (remove those reference columns first).</p>
          </>
        }
        typeToConfirm={table.name}
        confirmLabel="Delete table"
        pending={drop.isPending}
        error={drop.error}
        onConfirm={() =>
          drop.mutate(undefined, {
            onSuccess: () => {
              setEditing(null);
              router.replace(`/databases/${instance}/schema`);
            },
          })
        }
      />
    </div>
  );
};
