"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { Column } from "../api/types";
import { useAddColumn, useUpdateColumn } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { FormError } from "../ui/states";
import { type ColumnDraft, draftFromColumn, newColumnDraft, toColumnInput } from "./column-draft";
import { ColumnEditor } from "./column-editor";

type Props = { instance: string; table: string; tables: string[]; column?: Column; onClose: () => void };

/** Adds a column, or edits one (PATCH): applied at once to the table, its API and its docs. */
export const ColumnDialog = ({ instance, table, tables, column, onClose }: Props) => {
  const add = useAddColumn(instance, table);
  const update = useUpdateColumn(instance, table, column?.name ?? "");
  const mutation = column ? update : add;
  const [draft, setDraft] = useState<ColumnDraft>(() => (column ? draftFromColumn(column) : newColumnDraft()));
  const errors = fieldErrors(mutation.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = toColumnInput(draft);
    // A PATCH removes a default with null; POST simply omits it.
    const body = column && input.default === undefined && column.default !== undefined ? { ...input, default: null } : input;
    mutation.mutate(body as never, { onSuccess: onClose });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title={column ? `Edit column ${table}.${column.name}` : `Add a column to ${table}`}
      description={
        column
          ? "Existing rows are converted when the change is lossless; otherwise nothing changes and the reason is shown."
          : "Existing rows get the default (a NOT NULL column on a table with rows needs one)."
      }
    >
      <form onSubmit={submit}>
        <ColumnEditor draft={draft} onChange={setDraft} tables={tables} errors={errors} />
        {Object.keys(errors).length === 0 && <div className="mt-4"><FormError error={mutation.error} /></div>}
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={mutation.isPending}>
            {column ? "Save column" : "Add column"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
