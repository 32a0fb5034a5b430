"use client";
import { useState } from "react";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { Field, SelectInput } from "../ui/field";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { HookEditor } from "./hook-editor";
import { HookLogs } from "./hook-logs";
import { TryHooks } from "./try-hooks";
import { SegmentedTabs } from "../ui/segmented-tabs";
import { isSecret } from "@/lib/schema/type-traits";

const VIEWS = [
  { id: "steps", label: "Steps" },
  { id: "logs", label: "Run logs" },
] as const;

/**
 * The Hooks tab: per table, the steps run before each insert, update and delete (CEL `set` and `assert`),
 * a dry run on a sample row, and the log of every run. Changing hooks is the owner's and admins'.
 */
export const HooksPage = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const { admin } = useDatabaseAccess(instance);
  const [view, setView] = useState<(typeof VIEWS)[number]["id"]>("steps");
  const [picked, setPicked] = useState<string>();
  if (database.isLoading) return <LoadingState label="Loading hooks…" />;
  if (database.error) return <ErrorState error={database.error} onRetry={() => database.refetch()} />;
  const tables = database.data!.tables;
  if (tables.length === 0) return <EmptyState title="No tables yet">Hooks run before writes to a table; add one in the Schema tab.</EmptyState>;
  const table = tables.find((t) => t.name === picked) ?? tables[0];
  // Automatic and password columns are neither set nor read by hooks.
  const columns = table.columns.filter((c) => !isSecret(c) && !["id", "created_at", "updated_at"].includes(c.name));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Pre hooks</h2>
          <p className="text-sm text-slate-600">
            Steps that run in order inside each write, before it reaches the table: <code className="font-mono">set</code> a column from a CEL expression, or{" "}
            <code className="font-mono">assert</code> one (false → 422 with your message). A runtime error stops the write with a 500; nothing is written.
          </p>
        </div>
        <SegmentedTabs label="Hooks views" value={view} onChange={setView} options={VIEWS} />
      </div>
      {view === "logs" ? (
        <HookLogs instance={instance} tables={tables} />
      ) : (
        <>
          <Field label="Table" htmlFor="hooks-table" className="w-56">
            <SelectInput id="hooks-table" value={table.name} onChange={(e) => setPicked(e.target.value)}>
              {tables.map((t) => (
                <option key={t.name}>{t.name}</option>
              ))}
            </SelectInput>
          </Field>
          <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <HookEditor key={table.name} instance={instance} table={table.name} columns={columns.map((c) => c.name)} canAdmin={admin} />
            <TryHooks key={`try-${table.name}`} instance={instance} table={table.name} columns={columns} />
          </div>
        </>
      )}
    </div>
  );
};
