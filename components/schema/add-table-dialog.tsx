"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { useCreateTable } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";
import { type ColumnDraft, newColumnDraft, toColumnInput } from "./column-draft";
import { ColumnRows } from "./column-rows";

/** A row left with no name is not a column yet: it is dropped before sending. */
export const namedColumns = (columns: ColumnDraft[]) => columns.filter((c) => c.name.trim());

/** Creates a table with its columns (id, created_at, updated_at come on their own), in one request. */
export const AddTableDialog = ({ instance, tables, open, onClose }: { instance: string; tables: string[]; open: boolean; onClose: () => void }) => {
  const router = useRouter();
  const create = useCreateTable(instance);
  const [name, setName] = useState("");
  const [columns, setColumns] = useState<ColumnDraft[]>(() => [newColumnDraft()]);
  const errors = fieldErrors(create.error);
  const close = () => {
    setName("");
    setColumns([newColumnDraft()]);
    create.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const named = namedColumns(columns);
    setColumns(named.length ? named : [newColumnDraft()]);
    create.mutate(
      { name: name.trim(), columns: named.map(toColumnInput) },
      {
        onSuccess: (table) => {
          close();
          router.push(`/databases/${instance}/schema?table=${encodeURIComponent(table.name)}`);
        },
      },
    );
  };
  const columnProblems = Object.keys(errors).some((f) => f.startsWith("columns["));
  return (
    <Dialog open={open} onClose={close} wide="grid" title="Add a table" description="With its columns, one row each; id, created_at and updated_at come on their own. Its API endpoints exist at once.">
      <form onSubmit={submit} noValidate>
        <Field className="max-w-sm" label="Table name" htmlFor="new-table-name" hint="Lowercase letters, digits and _; starts with a letter." error={errors.name}>
          <TextInput id="new-table-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. orders" invalid={!!errors.name} autoFocus />
        </Field>
        <div className="mt-4">
          <ColumnRows columns={columns} onChange={setColumns} tables={[...tables, name.trim()].filter(Boolean)} error={create.error} at="columns[" />
        </div>
        {!errors.name && !columnProblems && <div className="mt-3"><FormError error={create.error} /></div>}
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" pending={create.isPending}>
            Add table
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
