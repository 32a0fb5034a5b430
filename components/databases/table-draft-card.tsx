"use client";
import { fieldErrors } from "../api/api-error";
import { PlusIcon } from "../icons";
import { newColumnDraft } from "../schema/column-draft";
import { ColumnEditor } from "../schema/column-editor";
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

/** One table of a quick create: its name and its columns, each with the full column editor. */
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
      <ol className="divide-y divide-slate-100">
        {table.columns.map((column, j) => (
          <li key={column.key} className="flex gap-3 px-4 py-4" aria-label={`Column ${j + 1}`}>
            <span className="mt-6 w-5 shrink-0 text-right text-xs text-slate-400">{j + 1}</span>
            <div className="min-w-0 flex-1">
              <ColumnEditor
                draft={column}
                tables={tableNames.filter(Boolean)}
                errors={fieldErrors(error, `${at}columns[${j}].`)}
                onChange={(d) => onChange({ ...table, columns: table.columns.map((c) => (c.key === d.key ? d : c)) })}
              />
            </div>
            <Button
              size="sm"
              variant="ghost"
              className="mt-5"
              aria-label={`Remove column ${j + 1}`}
              onClick={() => onChange({ ...table, columns: table.columns.filter((c) => c.key !== column.key) })}
            >
              ×
            </Button>
          </li>
        ))}
      </ol>
      <div className="border-t border-slate-100 px-4 py-3">
        <Button size="sm" onClick={() => onChange({ ...table, columns: [...table.columns, newColumnDraft()] })}>
          <PlusIcon /> Add column
        </Button>
      </div>
    </section>
  );
};
