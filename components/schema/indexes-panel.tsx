"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { Table } from "../api/types";
import { useAddIndex, useDropIndex } from "../api/use-schema-mutations";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Checkbox, Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

/** Without `editable` the list is read-only (a viewer's role). */
type Props = { instance: string; table: Table; editable: boolean };

/** The table's indexes over several columns: listed, added (columns in order) and removed at once. */
export const IndexesPanel = ({ instance, table, editable }: Props) => {
  const add = useAddIndex(instance, table.name);
  const drop = useDropIndex(instance, table.name);
  const [columns, setColumns] = useState("");
  const [unique, setUnique] = useState(false);
  const errors = fieldErrors(add.error);
  const columnsError = Object.entries(errors).find(([field]) => field.startsWith("columns"))?.[1];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const names = columns.split(",").map((c) => c.trim()).filter(Boolean);
    add.mutate({ columns: names, unique }, {
      onSuccess: () => {
        setColumns("");
        setUnique(false);
      },
    });
  };
  return (
    <section aria-label={`Indexes of ${table.name}`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-xs">
      <h3 className="text-sm font-semibold text-slate-800">Indexes over several columns</h3>
      <p className="text-xs text-slate-500">
        Filters and sorts that lead with an index&apos;s columns read from it instead of scanning the table. A column&apos;s own index is its Index
        checkbox; reference columns always have one.
      </p>
      {table.indexes.length === 0 ? (
        <p className="text-sm text-slate-500">None yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {table.indexes.map((index) => (
            <li key={index.name} className="flex items-center justify-between gap-3 py-1.5">
              <span className="flex items-center gap-2 text-sm">
                <span className="font-mono">{index.name}</span>
                <span className="font-mono text-xs text-slate-500">({index.columns.join(", ")})</span>
                {index.unique && <Badge tone="green">UNIQUE</Badge>}
              </span>
              {editable && (
                <Button size="sm" className="text-red-600" pending={drop.isPending && drop.variables === index.name} onClick={() => drop.mutate(index.name)}>
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError error={drop.error} />
      {editable && (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3 border-t border-slate-100 pt-2">
          <Field className="min-w-64 flex-1" label="Columns, in order" htmlFor={`${table.name}-index-columns`} hint="Comma-separated, e.g. category, price" error={columnsError}>
            <TextInput id={`${table.name}-index-columns`} value={columns} onChange={(e) => setColumns(e.target.value)} placeholder="category, price" invalid={!!columnsError} autoComplete="off" />
          </Field>
          <div className="pb-2">
            <Checkbox label="Unique" checked={unique} onChange={(e) => setUnique(e.target.checked)} />
          </div>
          <Button type="submit" size="sm" pending={add.isPending} className="mb-1">
            Add index
          </Button>
          {!columnsError && <div className="basis-full"><FormError error={add.error} /></div>}
        </form>
      )}
    </section>
  );
};
