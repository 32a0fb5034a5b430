"use client";
import { type FormEvent, useState } from "react";
import { ApiRequestError } from "../api/api-error";
import { useAddColumns } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { FormError } from "../ui/states";
import { namedColumns } from "./add-table-dialog";
import { type ColumnDraft, newColumnDraft, toColumnInput } from "./column-draft";
import { ColumnRows } from "./column-rows";

type Props = { instance: string; table: string; tables: string[]; onClose: () => void };

const plural = (n: number) => (n === 1 ? "Add column" : `Add ${n} columns`);

/** Adds one or several columns in one save: all of them, or none with each problem beside its column. */
export const AddColumnsDialog = ({ instance, table, tables, onClose }: Props) => {
  const add = useAddColumns(instance, table);
  const [columns, setColumns] = useState<ColumnDraft[]>(() => [newColumnDraft()]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const named = namedColumns(columns);
    if (!named.length) return;
    setColumns(named);
    add.mutate(named.map(toColumnInput), { onSuccess: onClose });
  };
  const byColumn = add.error instanceof ApiRequestError && add.error.errors.some((x) => x.field.startsWith("columns["));
  const count = namedColumns(columns).length;
  return (
    <Dialog
      open
      onClose={onClose}
      wide="grid"
      title={`Add columns to ${table}`}
      description="One row per column, all saved together: if one is refused, none is added. Existing rows get each column's default (a required column on a table with rows needs one)."
    >
      <form onSubmit={submit} noValidate>
        <ColumnRows columns={columns} onChange={setColumns} tables={tables} error={add.error} at="columns[" />
        {byColumn ? (
          <p role="status" className="mt-3 text-sm text-red-700">Nothing was added: fix the columns marked in red.</p>
        ) : (
          <div className="mt-3"><FormError error={add.error} /></div>
        )}
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={add.isPending} disabled={!count}>
            {plural(Math.max(count, 1))}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
