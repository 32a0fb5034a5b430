"use client";
import { useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { Join } from "../api/types";
import { type JoinForm, useCreateJoin, useUpdateJoin } from "../api/use-joins";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { ErrorList } from "./preview-table";

type Props = { instance: string; input: JoinForm | undefined; onSaved?: (saved: Join) => void; /** The saved join being edited: saving PATCHes it (a new name renames it). */ editing?: string };

/** Names and saves a join from either editor; the API checks it again against the live schema. */
export const SaveJoinBar = ({ instance, input, onSaved, editing }: Props) => {
  const [name, setName] = useState(editing ?? "");
  const createJoin = useCreateJoin(instance);
  const update = useUpdateJoin(instance);
  const create = editing ? update : createJoin;
  const nameError = fieldErrors(create.error).name;
  const save = () => {
    if (!input) return;
    const done = { onSuccess: (saved: Join) => (editing ? undefined : setName(""), onSaved?.(saved)) };
    if (editing) update.mutate({ join: editing, body: { ...input, name } }, done);
    else createJoin.mutate({ ...input, name }, done);
  };
  return (
    <div className="space-y-2 border-t border-slate-200 pt-4">
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Join name" htmlFor="join-name" error={nameError} className="w-64">
          <TextInput id="join-name" value={name} placeholder="books_with_authors" onChange={(e) => setName(e.target.value)} invalid={Boolean(nameError)} />
        </Field>
        <Button variant="primary" onClick={save} disabled={!input || !name} pending={create.isPending}>
          {editing ? "Save changes" : "Save join"}
        </Button>
        {/* Beside the button, where the eye is after the click. */}
        <p role="status" className="w-full min-w-0 pb-1.5 text-sm break-words text-emerald-700 sm:w-auto">
          {create.isSuccess && (
            <>
              ✓ Saved <span className="font-mono">{create.data.name}</span>: <code className="font-mono">GET {create.data.path}</code>
            </>
          )}
        </p>
      </div>
      {create.error && !nameError && <ErrorList error={create.error} />}
    </div>
  );
};
