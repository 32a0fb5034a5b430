"use client";
import { useState } from "react";
import { fieldErrors } from "../api/api-error";
import { type JoinForm, useCreateJoin, useUpdateJoin } from "../api/use-joins";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { ErrorList } from "./preview-table";

type Props = { instance: string; input: JoinForm | undefined; onSaved?: () => void; /** The saved join being edited: saving PATCHes it (a new name renames it). */ editing?: string };

/** Names and saves a join from either editor; the API checks it again against the live schema. */
export const SaveJoinBar = ({ instance, input, onSaved, editing }: Props) => {
  const [name, setName] = useState(editing ?? "");
  const createJoin = useCreateJoin(instance);
  const update = useUpdateJoin(instance);
  const create = editing ? update : createJoin;
  const nameError = fieldErrors(create.error).name;
  const save = () => {
    if (!input) return;
    const done = { onSuccess: () => (editing ? undefined : setName(""), onSaved?.()) };
    if (editing) update.mutate({ join: editing, body: { ...input, name } }, done);
    else createJoin.mutate({ ...input, name }, done);
  };
  return (
    <div className="space-y-2 border-t border-slate-200 pt-4">
      <div className="flex items-end gap-2">
        <Field label="Join name" htmlFor="join-name" error={nameError} className="w-64">
          <TextInput id="join-name" value={name} placeholder="books_with_authors" onChange={(e) => setName(e.target.value)} invalid={Boolean(nameError)} />
        </Field>
        <Button variant="primary" onClick={save} disabled={!input || !name} pending={create.isPending}>
          {editing ? "Save changes" : "Save join"}
        </Button>
      </div>
      {create.error && !nameError && <ErrorList error={create.error} />}
      {create.isSuccess && (
        <p role="status" className="text-sm text-emerald-700">
          Saved: <code className="font-mono">GET {create.data.path}</code>
        </p>
      )}
    </div>
  );
};
