"use client";
import { fieldErrors } from "../api/api-error";
import { ColumnRows } from "../schema/column-rows";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import type { TableDraft } from "./table-draft";

type Props = {
  index: number;
  table: TableDraft;
  onChange: (t: TableDraft) => void;
  onRemove: () => void;
  /** Every table name of the form, for reference pickers. */
  tableNames: string[];
  error: unknown;
};

/** One table of a quick create: its name and its columns as a compact grid, one row per column. */
export const TableDraftCard = ({ index, table, onChange, onRemove, tableNames, error }: Props) => {
  const at = `tables[${index}].`;
  const tableErrors = fieldErrors(error, at);
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-xs" aria-label={`Table ${index + 1}`}>
      <div className="flex flex-wrap items-end gap-3 border-b border-slate-100 bg-slate-50/70 px-4 py-3">
        <Field className="w-full sm:w-72" label={`Table ${index + 1} name`} htmlFor={`${table.key}-name`} error={tableErrors.name}>
          <TextInput
            id={`${table.key}-name`}
            value={table.name}
            onChange={(e) => onChange({ ...table, name: e.target.value })}
            placeholder="e.g. products"
            invalid={!!tableErrors.name}
            autoComplete="off"
          />
        </Field>
        <p className="pb-2 text-xs text-slate-500">id, created_at and updated_at are added automatically.</p>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onRemove}>
          Remove table
        </Button>
      </div>
      <div className="p-3">
        <ColumnRows columns={table.columns} onChange={(columns) => onChange({ ...table, columns })} tables={tableNames.filter(Boolean)} error={error} at={`${at}columns[`} />
      </div>
    </section>
  );
};
