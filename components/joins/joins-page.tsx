"use client";
import dynamic from "next/dynamic";
import { useState } from "react";
import { whyNot } from "../api/can";
import type { Join, Table } from "../api/types";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { useDeleteJoin, useJoins } from "../api/use-joins";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorState, LoadingState } from "../ui/states";
import { AiJoin } from "./ai-join";
import { definitionSql } from "./canvas-definition";
import { VisualEditor } from "./visual-editor";
import { SegmentedTabs } from "../ui/segmented-tabs";

// Monaco touches `window` on load; the SQL editor renders in the browser only.
const SqlEditor = dynamic(() => import("./sql-editor").then((m) => m.SqlEditor), { ssr: false, loading: () => <LoadingState label="Loading the SQL editor…" /> });

const MODES = [
  { id: "visual", label: "Visual editor" },
  { id: "sql", label: "SQL" },
  { id: "ai", label: "AI" },
] as const;

type Mode = (typeof MODES)[number]["id"];

/** A new join, in the visual editor, SQL mode or AI mode (a sentence → a proposal). */
const NewJoin = ({ instance, tables }: { instance: string; tables: Table[] }) => {
  const [mode, setMode] = useState<Mode>("visual");
  return (
    <section aria-label="New join" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">New join</h2>
        <SegmentedTabs label="Join editor mode" value={mode} onChange={setMode} options={MODES} />
      </div>
      {tables.length < 2 ? (
        <p className="text-sm text-slate-600">A join needs at least two tables; add them in the Schema tab.</p>
      ) : mode === "visual" ? (
        <VisualEditor instance={instance} tables={tables} />
      ) : mode === "sql" ? (
        <SqlEditor instance={instance} tables={tables} />
      ) : (
        <AiJoin instance={instance} />
      )}
    </section>
  );
};

/** A saved join reopened: in SQL mode when it was written in SQL, else on the canvas; saving PATCHes it (rename included). */
const EditJoin = ({ instance, tables, join, onDone, onSaved }: { instance: string; tables: Table[]; join: Join; onDone: () => void; onSaved: (saved: Join) => void }) => {
  const [mode, setMode] = useState<Mode>(join.sql ? "sql" : "visual");
  const definition = { base: join.base, joins: join.joins, columns: join.columns };
  return (
    <section aria-label={`Edit join ${join.name}`} className="space-y-4 rounded-lg border border-indigo-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">
          Edit join <span className="font-mono">{join.name}</span>
        </h2>
        <div className="flex items-center gap-2">
          <SegmentedTabs label="Join editor mode" value={mode} onChange={setMode} options={MODES.filter((m) => m.id !== "ai")} />
          <Button size="sm" variant="ghost" onClick={onDone}>
            Close
          </Button>
        </div>
      </div>
      {mode === "visual" ? (
        <VisualEditor instance={instance} tables={tables} editing={{ name: join.name, definition }} onSaved={onSaved} />
      ) : (
        <SqlEditor instance={instance} tables={tables} editing={{ name: join.name, sql: join.sql ?? definitionSql(definition) }} onSaved={onSaved} />
      )}
    </section>
  );
};

/** The Joins tab: saved joins with their API paths (edit, delete after a confirmation), and a new join in the visual editor, SQL or AI mode. */
export const JoinsPage = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const joins = useJoins(instance);
  const remove = useDeleteJoin(instance);
  const { write } = useDatabaseAccess(instance);
  const [editing, setEditing] = useState<string | null>(null);
  // The editor stays open after a save (renamed or not) so its confirmation stays beside the Save button.
  const [editRun, setEditRun] = useState(0);
  const [deleting, setDeleting] = useState<string | null>(null);
  if (database.isLoading || joins.isLoading) return <LoadingState label="Loading joins…" />;
  if (database.error || joins.error) return <ErrorState error={database.error ?? joins.error} title="Could not load the joins" onRetry={() => joins.refetch()} />;
  const tables = database.data!.tables;
  const edited = joins.data!.find((j) => j.name === editing);
  return (
    <div className="space-y-8">
      <section aria-label="Saved joins" className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Joins</h2>
        {joins.data!.length === 0 ? (
          <p className="text-sm text-slate-600">No joins yet. A join merges several tables into one read-only API path.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
            {joins.data!.map((j) => (
              <li key={j.name} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" aria-label={`Join ${j.name}`}>
                <div className="min-w-0">
                  <p className="font-mono text-sm font-medium text-slate-900">{j.name}</p>
                  <p className="text-xs break-words text-slate-600">
                    <code>GET {j.path}</code> · {j.base}
                    {j.joins.map((x, i) => (
                      <span key={i}>
                        {" "}
                        ⋈ {x.table} <span className="rounded bg-slate-100 px-1 text-[11px] font-medium text-slate-700">{x.type ?? "inner"}</span>
                      </span>
                    ))}{" "}
                    · {j.columns.map((c) => c.as).join(", ")}
                  </p>
                </div>
                {write && (
                  <div className="flex gap-1">
                    <Button variant="ghost" size="sm" onClick={() => (setEditing(j.name), setEditRun((n) => n + 1))} aria-label={`Edit join ${j.name}`}>
                      Edit
                    </Button>
                    <Button variant="ghost" size="sm" className="text-red-700" onClick={() => (remove.reset(), setDeleting(j.name))} aria-label={`Delete join ${j.name}`}>
                      Delete
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {write && edited && <EditJoin key={editRun} instance={instance} tables={tables} join={edited} onDone={() => setEditing(null)} onSaved={(saved) => setEditing(saved.name)} />}
      {write ? (
        <NewJoin instance={instance} tables={tables} />
      ) : (
        <p className="text-sm text-slate-600" role="note">
          {whyNot("write")} Making or deleting a join needs the editor role; the saved joins above are yours to read through the API.
        </p>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete join ${deleting ?? ""}?`}
        consequences={<p>Its API path <code className="font-mono">GET /v1/{instance}/{deleting}</code> stops answering at once (404). The tables and their rows are not touched.</p>}
        confirmLabel="Delete join"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => (setDeleting(null), editing === deleting && setEditing(null)) })}
      />
    </div>
  );
};
