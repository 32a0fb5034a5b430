"use client";
import type { Column, DataRecord, Table } from "../api/types";
import { Button } from "../ui/button";
import { cellText } from "./record-values";

/** Without `actions` the grid is read-only (a viewer's role): no edit or delete column. */
type Props = { table: Table; rows: DataRecord[]; actions?: { edit: (r: DataRecord) => void; remove: (r: DataRecord) => void } };

const AUTO_HEAD: Pick<Column, "name" | "type">[] = [{ name: "id", type: "bigint" }];
const AUTO_TAIL: Pick<Column, "name" | "type">[] = [
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
];

const Cell = ({ column, value }: { column: Pick<Column, "name" | "type">; value: unknown }) => {
  const text = cellText(column, value);
  const muted = value === null || value === undefined;
  return (
    <td
      data-column={column.name}
      title={column.type === "password" ? "bcrypt hash (hidden)" : typeof value === "string" ? value : text}
      className={`max-w-56 truncate px-3 py-2 ${muted ? "text-slate-400 italic" : column.type === "password" ? "tracking-widest text-slate-500" : "text-slate-800"} ${
        ["int", "bigint", "decimal", "float", "reference"].includes(column.type) ? "text-right tabular-nums" : ""
      }`}
    >
      {text}
    </td>
  );
};

/** The records of one page: every column (passwords masked), with edit and delete per row. */
export const RecordsGrid = ({ table, rows, actions }: Props) => {
  const columns = [...AUTO_HEAD, ...table.columns, ...AUTO_TAIL];
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label={`Records of ${table.name}`}>
        <thead className="bg-slate-50">
          <tr>
            {actions && (
              <th className="w-px px-2 py-2">
                <span className="sr-only">Actions</span>
              </th>
            )}
            {columns.map((c) => (
              <th key={c.name} scope="col" className="px-3 py-2 text-left align-bottom whitespace-nowrap">
                <span className="block font-mono text-xs font-medium text-slate-700">{c.name}</span>
                <span className="block text-[11px] font-normal text-slate-400">{c.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id} data-record-id={r.id} className="hover:bg-slate-50/70">
              {actions && (
                <td className="px-1 py-1 whitespace-nowrap">
                  <Button size="sm" variant="ghost" onClick={() => actions.edit(r)} aria-label={`Edit record ${r.id}`}>
                    Edit
                  </Button>
                  <Button size="sm" variant="ghost" className="text-red-600 hover:text-red-700" onClick={() => actions.remove(r)} aria-label={`Delete record ${r.id}`}>
                    Delete
                  </Button>
                </td>
              )}
              {columns.map((c) => (
                <Cell key={c.name} column={c} value={r[c.name]} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
