import type { ReactNode } from "react";

export type TableColumn = string | { label: string; align?: "right"; hidden?: boolean };

/** The dashboard's list table: a bordered card, a header row of column labels, and the given body rows. */
export const Table = ({ label, columns, children }: { label: string; columns: TableColumn[]; children: ReactNode }) => (
  <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
    <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label={label}>
      <thead className="bg-slate-50 text-left text-xs font-medium text-slate-600">
        <tr>
          {columns.map((c) => {
            const column = typeof c === "string" ? { label: c } : c;
            return (
              <th key={column.label} className={`px-4 py-2${column.align === "right" ? " text-right" : ""}`}>
                {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">{children}</tbody>
    </table>
  </div>
);
