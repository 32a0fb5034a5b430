"use client";
import dynamic from "next/dynamic";
import { useState } from "react";
import { whyNot } from "../api/can";
import type { Table } from "../api/types";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { useDeleteJoin, useJoins } from "../api/use-joins";
import { Button } from "../ui/button";
import { ErrorState, LoadingState } from "../ui/states";
import { AiJoin } from "./ai-join";
import { VisualEditor } from "./visual-editor";

// Monaco touches `window` on load; the SQL editor renders in the browser only.
const SqlEditor = dynamic(() => import("./sql-editor").then((m) => m.SqlEditor), { ssr: false, loading: () => <LoadingState label="Loading the SQL editor…" /> });

const MODES = [
  { id: "visual", label: "Visual editor" },
  { id: "sql", label: "SQL" },
  { id: "ai", label: "AI" },
] as const;

/** A new join, in the visual editor, SQL mode or AI mode (a sentence → a proposal). */
const NewJoin = ({ instance, tables }: { instance: string; tables: Table[] }) => {
  const [mode, setMode] = useState<(typeof MODES)[number]["id"]>("visual");
  return (
    <section aria-label="New join" className="space-y-4">
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-slate-900">New join</h2>
        <div role="tablist" className="flex gap-1 rounded-md bg-slate-100 p-1">
          {MODES.map((m) => (
            <button
              key={m.id}
              role="tab"
              type="button"
              aria-selected={mode === m.id}
              onClick={() => setMode(m.id)}
              className={`rounded px-3 py-1 text-sm font-medium ${mode === m.id ? "bg-white text-slate-900 shadow-xs" : "text-slate-600 hover:text-slate-900"}`}
            >
              {m.label}
            </button>
          ))}
        </div>
      </div>
      {tables.length < 2 ? (
        <p className="text-sm text-slate-500">A join needs at least two tables; add them in the Schema tab.</p>
      ) : mode === "visual" ? (
        <VisualEditor instance={instance} tables={tables} />
      ) : mode === "sql" ? (
        <SqlEditor instance={instance} />
      ) : (
        <AiJoin instance={instance} />
      )}
    </section>
  );
};

/** The Joins tab: saved joins with their API paths, and (for editors) a visual editor, SQL or AI mode to make a new one. */
export const JoinsPage = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const joins = useJoins(instance);
  const remove = useDeleteJoin(instance);
  const { write } = useDatabaseAccess(instance);
  if (database.isLoading || joins.isLoading) return <LoadingState label="Loading joins…" />;
  if (database.error || joins.error) return <ErrorState error={database.error ?? joins.error} title="Could not load the joins" onRetry={() => joins.refetch()} />;
  const tables = database.data!.tables;
  return (
    <div className="space-y-8">
      <section aria-label="Saved joins" className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Joins</h2>
        {joins.data!.length === 0 ? (
          <p className="text-sm text-slate-500">No joins yet. A join merges several tables into one read-only API path.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
            {joins.data!.map((j) => (
              <li key={j.name} className="flex items-center justify-between gap-4 px-3 py-2" aria-label={`Join ${j.name}`}>
                <div className="min-w-0">
                  <p className="font-mono text-sm font-medium text-slate-900">{j.name}</p>
                  <p className="truncate text-xs text-slate-500">
                    <code>GET {j.path}</code> · {[j.base, ...j.joins.map((x) => x.table)].join(" ⋈ ")} · {j.columns.map((c) => c.as).join(", ")}
                  </p>
                </div>
                {write && (
                  <Button variant="ghost" size="sm" onClick={() => remove.mutate(j.name)} pending={remove.isPending && remove.variables === j.name}>
                    Delete
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {write ? (
        <NewJoin instance={instance} tables={tables} />
      ) : (
        <p className="text-sm text-slate-500" role="note">
          {whyNot("write")} Making or deleting a join needs the editor role; the saved joins above are yours to read through the API.
        </p>
      )}
    </div>
  );
};
