"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ApiRequestError, fieldErrors } from "../api/api-error";
import { can } from "../api/can";
import type { Workspace } from "../api/types";
import { useCreateDatabase } from "../api/use-databases";
import { useWorkspaces } from "../api/use-team";
import { PlusIcon } from "../icons";
import { Button } from "../ui/button";
import { Field, SelectInput, TextInput } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { ProgressBar } from "../ui/progress-bar";
import { FormError } from "../ui/states";
import { countColumns, newTableDraft, type TableDraft, toTableInput } from "./table-draft";
import { TableDraftCard } from "./table-draft-card";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Where the database goes: your workspace, or one where you are an editor or admin (its owner's quota). */
const WorkspaceField = ({ workspaces, value, onChange, error }: { workspaces: Workspace[]; value: string; onChange: (v: string) => void; error?: string }) => {
  const chosen = workspaces.find((w) => String(w.owner.id) === value);
  return (
    <Field
      className="w-96"
      label="Workspace"
      htmlFor="db-workspace"
      error={error}
      hint={chosen ? `Owned by ${chosen.owner.email} and counted on their plan; you are its creator.` : "Yours, counted on your plan."}
    >
      <SelectInput id="db-workspace" value={value} onChange={(e) => onChange(e.target.value)} invalid={!!error}>
        <option value="">My workspace</option>
        {workspaces.map((w) => (
          <option key={w.owner.id} value={w.owner.id}>
            {w.owner.email}’s workspace ({w.role})
          </option>
        ))}
      </SelectInput>
    </Field>
  );
};

/** Create a database: empty, or quick create with several tables and columns, applied all at once. */
export const NewDatabaseForm = () => {
  const router = useRouter();
  const create = useCreateDatabase();
  // Viewers cannot create databases in a workspace: only editors' and admins' workspaces are offered.
  const writable = (useWorkspaces().data ?? []).filter((w) => can(w.role, "write"));
  const asked = useSearchParams().get("workspace") ?? "";
  const [picked, setPicked] = useState<string | undefined>();
  const workspace = picked ?? (writable.some((w) => String(w.owner.id) === asked) ? asked : "");
  const [name, setName] = useState("");
  const [tables, setTables] = useState<TableDraft[]>([]);
  const errors = fieldErrors(create.error);
  const names = tables.map((t) => t.name.trim());
  const summary = tables.length ? `${plural(tables.length, "table")} and ${plural(countColumns(tables), "column")}` : "no tables";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = { name, ...(tables.length ? { tables: tables.map(toTableInput) } : {}), ...(workspace ? { workspace: Number(workspace) } : {}) };
    create.mutate(body, { onSuccess: (db) => router.push(`/databases/${db.instance}/schema`) });
  };
  const fieldProblems = Object.keys(errors).length;
  // A 402 may name a workspace with room: one click picks it (ours when it is not one of the shared ones).
  const room = create.error instanceof ApiRequestError ? (create.error.extra.workspace_with_room as { id: number; owner: string } | undefined) : undefined;
  const roomValue = room && (writable.some((w) => w.owner.id === room.id) ? String(room.id) : "");

  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      <PageHeader
        title="New database"
        description="Start empty, or quick-create its tables and columns in one go: everything is created together, or nothing is."
      />
      <div className="flex flex-wrap items-start gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
        <Field className="w-full max-w-md" label="Database name" htmlFor="db-name" hint="Free text. Its API path is made from it, e.g. Shop → /v1/shop_7k2m9x." error={errors.name}>
          <TextInput id="db-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Shop" invalid={!!errors.name} autoFocus />
        </Field>
        <WorkspaceField workspaces={writable} value={workspace} onChange={setPicked} error={errors.workspace} />
      </div>

      {tables.map((t, i) => (
        <TableDraftCard
          key={t.key}
          index={i}
          table={t}
          tableNames={names}
          error={create.error}
          onChange={(next) => setTables(tables.map((x) => (x.key === next.key ? next : x)))}
          onRemove={() => setTables(tables.filter((x) => x.key !== t.key))}
        />
      ))}

      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => setTables([...tables, newTableDraft()])}>
          <PlusIcon /> {tables.length ? "Add another table" : "Add a table (quick create)"}
        </Button>
        {tables.length === 0 && <p className="text-sm text-slate-500">Or create it empty and design tables in the schema editor.</p>}
      </div>

      <div className="sticky bottom-0 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-4 backdrop-blur md:-mx-7 md:px-7">
        {create.isPending ? (
          <ProgressBar label={`Creating “${name}” with ${summary}: writing the schema and the API…`} />
        ) : (
          <div className="flex items-center gap-3">
            <Button type="submit" variant="primary">
              {tables.length ? `Create database with ${plural(tables.length, "table")}` : "Create empty database"}
            </Button>
            <Link href="/databases" className="text-sm text-slate-600 hover:text-slate-900">
              Cancel
            </Link>
            <div className="ml-auto max-w-lg">
              <FormError error={create.error} fallback={fieldProblems ? "Nothing was created: fix the fields marked in red." : undefined} />
              {room && roomValue !== workspace && (
                <Button className="mt-2" onClick={() => setPicked(roomValue)}>
                  Use {roomValue ? `${room.owner}’s workspace` : "my workspace"}
                </Button>
              )}
            </div>
          </div>
        )}
      </div>
    </form>
  );
};
