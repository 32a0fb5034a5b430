"use client";
import { fieldErrors } from "../api/api-error";
import { PlusIcon } from "../icons";
import { Button } from "../ui/button";
import { type ColumnDraft, newColumnDraft } from "./column-draft";
import { ColumnRow, ColumnRowsHeader } from "./column-row";

type Props = {
  columns: ColumnDraft[];
  onChange: (columns: ColumnDraft[]) => void;
  /** Tables a reference column may point to. */
  tables: string[];
  error: unknown;
  /** Where the API names these columns' problems: `columns[` in a table, `tables[0].columns[` in a quick create. */
  at: string;
};

/** Columns as a compact grid, one row each, with "Add column" under the last. */
export const ColumnRows = ({ columns, onChange, tables, error, at }: Props) => (
  <div>
    <ColumnRowsHeader />
    <ol className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white" aria-label="Columns">
      {columns.map((column, i) => (
        <ColumnRow
          key={column.key}
          draft={column}
          position={i + 1}
          tables={tables}
          errors={fieldErrors(error, `${at}${i}].`)}
          onChange={(d) => onChange(columns.map((c) => (c.key === d.key ? d : c)))}
          onRemove={columns.length > 1 ? () => onChange(columns.filter((c) => c.key !== column.key)) : undefined}
        />
      ))}
    </ol>
    <Button size="sm" className="mt-2" onClick={() => onChange([...columns, newColumnDraft()])}>
      <PlusIcon /> Add another column
    </Button>
  </div>
);
