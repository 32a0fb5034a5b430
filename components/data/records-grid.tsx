"use client";
import { type KeyboardEvent, useRef, useState } from "react";
import type { Column, DataRecord, Table } from "../api/types";
import type { Sort } from "./build-query";
import { EditableCell } from "./editable-cell";
import { cellText } from "./record-values";
import type { ReadRows, ReferenceLabels } from "./reference-display";
import { RowMenu } from "./row-menu";
import { useFitToWindow } from "./use-fit-to-window";
import { useHeldEdit } from "./use-held-edit";
import { FileCell } from "./file-cell";
import { isFile, isOrderable, isReference, isSecret } from "@/lib/schema/type-traits";

/** `label`: the type as the header shows it, when it is not one of ours (a SQL result's server type). */
export type GridColumn = Pick<Column, "name" | "type"> & Partial<Column> & { label?: string };

/** Without `actions` the grid is read-only (a viewer's role): no selection, edit or delete. */
type Actions = {
  edit: (r: DataRecord) => void;
  remove: (r: DataRecord) => void;
  /** PATCH of one column, for inline edits. */
  patch: (id: number, body: Record<string, unknown>) => Promise<unknown>;
  selected: Set<number>;
  onSelect: (ids: number[], on: boolean) => void;
  /** Reference cells edit with the search picker of the record form. */
  references?: { tables: Table[]; read: ReadRows };
  /** Whether a record still exists: asked when the one being edited leaves the page. */
  exists?: (id: number) => Promise<boolean>;
};

type Props = {
  table: Pick<Table, "name" | "columns">;
  /** Columns to show instead of id, the table's columns and the timestamps (the SQL console's result). */
  columns?: GridColumn[];
  rows: DataRecord[];
  labels: ReferenceLabels;
  sorts: Sort[];
  onSort: (column: string) => void;
  actions?: Actions;
  /** Column names the grid leaves out (hide/show columns, saved views). */
  hidden?: Set<string>;
  /** Each row's React key when rows are not records (a SQL result's `id` column is a value like any other). */
  rowKey?: (row: DataRecord) => string | number;
};

const AUTO_HEAD: GridColumn[] = [{ name: "id", type: "bigint" }];
const AUTO_TAIL: GridColumn[] = [
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
];
const NUMERIC = ["int", "bigint", "decimal", "float"];
/** The selection/actions cell and the first column stay in place while the grid scrolls sideways. */
const STICKY = "sticky z-10 shadow-[1px_0_0_var(--color-slate-200)]";
/** The header row stays in place while the grid scrolls down (its corner cells above both). */
const STICKY_HEAD = "sticky top-0 z-20 bg-slate-50 shadow-[inset_0_-1px_0_var(--color-slate-200)]";
const STICKY_CORNER = "sticky top-0 z-30 bg-slate-50 shadow-[1px_0_0_var(--color-slate-200),inset_0_-1px_0_var(--color-slate-200)]";
/** Widths fit the content: short values keep narrow columns, long ones stop at 10rem (the full text is the cell's title). */
const CELL_WIDTH = "max-w-40";
/** Files change in the record form (an upload), never inline. */
const isEditable = (c: GridColumn): c is Column => "nullable" in c && !isSecret(c) && !isFile(c);

const SortMark = ({ sort }: { sort?: Sort }) => (
  <span aria-hidden className="w-3 text-indigo-700">
    {sort ? (sort.desc ? "▼" : "▲") : ""}
  </span>
);

const CellText = ({ column, value, labels }: { column: GridColumn; value: unknown; labels: ReferenceLabels }) => {
  if (isReference(column) && typeof value === "number") {
    // No label: a hidden or missing row, or a column past the expansion limit; the id alone stays honest.
    const label = labels[column.references ?? ""]?.[value];
    return (
      <span className="inline-flex items-baseline gap-1.5">
        {label !== undefined && <span className="text-slate-900">{label}</span>}
        <span className="text-xs text-slate-600 tabular-nums">#{value}</span>
      </span>
    );
  }
  if (isFile(column) && value != null) return <FileCell column={column} value={value} />;
  return <>{cellText(column, value)}</>;
};

/**
 * The records of one page. Header buttons sort (aria-sort says how); cells form one tab stop moved with the
 * arrow keys, Enter or a double click edits a cell in place; a checkbox per row selects it for bulk delete.
 */
export const RecordsGrid = ({ table, columns: shown, rows: records, labels, sorts, onSort, actions, hidden, rowKey }: Props) => {
  const columns: GridColumn[] = (shown ?? [...AUTO_HEAD, ...table.columns, ...AUTO_TAIL]).filter((c) => !hidden?.has(c.name));
  const [active, setActive] = useState({ row: 0, col: 0 });
  // Bound to the record id and column: a reload that moves or removes rows never moves the editor.
  const { editing, setEditing, rows, departure } = useHeldEdit(records, actions?.exists);
  const flush = useRef<(() => Promise<boolean>) | null>(null);
  // The open editor saves first; a refusal keeps it open (with its error) instead of the new one.
  const edit = async (row: number, col: number) => {
    const next = { id: rows[row].id, column: columns[col].name };
    if (editing && (editing.id !== next.id || editing.column !== next.column) && flush.current && !(await flush.current())) return;
    setEditing(next);
  };
  const body = useRef<HTMLTableSectionElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  useFitToWindow(scroller);
  const focusCell = (row: number, col: number) => {
    setActive({ row, col });
    body.current?.querySelector<HTMLElement>(`[data-cell="${row}:${col}"]`)?.focus();
  };
  const onCellKey = (e: KeyboardEvent<HTMLTableCellElement>, row: number, col: number) => {
    if (e.target !== e.currentTarget) return;
    const moves: Record<string, [number, number]> = { ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      focusCell(Math.min(rows.length - 1, Math.max(0, row + move[0])), Math.min(columns.length - 1, Math.max(0, col + move[1])));
    } else if ((e.key === "Enter" || e.key === "F2") && actions && isEditable(columns[col])) {
      e.preventDefault();
      void edit(row, col);
    }
  };
  const allSelected = actions && records.length > 0 && records.every((r) => actions.selected.has(r.id));

  return (
    // Scrolls both ways inside a box that ends in the window, so its sideways scrollbar is on screen with the rows.
    <div ref={scroller} data-testid="grid-scroller" className="relative overflow-auto overscroll-x-contain rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full text-sm" aria-label={`Records of ${table.name}`}>
        <thead>
          <tr>
            {actions && (
              <th className={`${STICKY_CORNER} left-0 w-16 min-w-16 px-2 py-1.5 text-left`}>
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  aria-label="Select every record on this page"
                  checked={!!allSelected}
                  onChange={(e) => actions.onSelect(records.map((r) => r.id), e.target.checked)}
                />
                <span className="sr-only">Actions</span>
              </th>
            )}
            {columns.map((c, ci) => {
              const sort = sorts.find((s) => s.column === c.name);
              const sortable = isOrderable(c);
              return (
                <th
                  key={c.name}
                  scope="col"
                  aria-sort={sort ? (sort.desc ? "descending" : "ascending") : sortable ? "none" : undefined}
                  title={c.name}
                  className={`px-2 py-1.5 text-left align-bottom whitespace-nowrap ${ci === 0 ? `${STICKY_CORNER} ${actions ? "left-16" : "left-0"}` : STICKY_HEAD}`}
                >
                  {sortable ? (
                    <button type="button" onClick={() => onSort(c.name)} className="group flex items-end gap-1 rounded text-left hover:text-indigo-800 focus-visible:outline-2 focus-visible:outline-indigo-500">
                      <span>
                        <span className="block max-w-44 truncate font-mono text-xs font-medium text-slate-800">{c.name}</span>
                        <span className="block text-[11px] font-normal text-slate-600">{c.label ?? c.type}</span>
                      </span>
                      <SortMark sort={sort} />
                      <span className="sr-only">, sort</span>
                    </button>
                  ) : (
                    <>
                      <span className="block max-w-44 truncate font-mono text-xs font-medium text-slate-800">{c.name}</span>
                      <span className="block text-[11px] font-normal text-slate-600">{c.label ?? c.type}</span>
                    </>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody ref={body} className="divide-y divide-slate-100">
          {rows.map((r, ri) => (
            <tr
              key={rowKey ? rowKey(r) : r.id}
              data-record-id={rowKey ? undefined : r.id}
              className={departure === "deleted" && editing?.id === r.id ? "bg-red-50 [&>td]:bg-red-50" : actions?.selected.has(r.id) ? "bg-indigo-50/60" : "hover:bg-slate-50/70"}
            >
              {actions && (
                // Raised while its menu is open, so the menu draws above the sticky cells of the rows below.
                <td className={`${STICKY} left-0 w-16 min-w-16 bg-white px-2 py-0.5 whitespace-nowrap has-[[aria-expanded=true]]:z-30`}>
                  <span className="flex items-center gap-1">
                    <input
                      type="checkbox"
                      className="size-4 accent-indigo-600"
                      aria-label={`Select record ${r.id}`}
                      checked={actions.selected.has(r.id)}
                      onChange={(e) => actions.onSelect([r.id], e.target.checked)}
                    />
                    <RowMenu recordId={r.id} onEdit={() => actions.edit(r)} onDelete={() => actions.remove(r)} />
                  </span>
                </td>
              )}
              {columns.map((c, ci) => {
                const value = r[c.name];
                const muted = value === null || value === undefined;
                const isEditing = !!editing && editing.id === r.id && editing.column === c.name && actions && isEditable(c);
                return (
                  <td
                    key={c.name}
                    data-column={c.name}
                    data-cell={`${ri}:${ci}`}
                    tabIndex={active.row === ri && active.col === ci && !isEditing ? 0 : -1}
                    onFocus={() => setActive({ row: ri, col: ci })}
                    onKeyDown={(e) => onCellKey(e, ri, ci)}
                    onDoubleClick={() => actions && isEditable(c) && void edit(ri, ci)}
                    title={isSecret(c) ? "bcrypt hash (hidden)" : typeof value === "string" ? value : undefined}
                    className={`${CELL_WIDTH} px-2 py-1 focus:outline-2 ${ci === 0 ? `${STICKY} bg-white ${actions ? "left-16" : "left-0"}` : ""} focus:-outline-offset-2 focus:outline-indigo-500 ${isEditing ? "" : "truncate"} ${
                      muted ? "text-slate-600 italic" : isSecret(c) ? "tracking-widest text-slate-600" : "text-slate-800"
                    } ${NUMERIC.includes(c.type) ? "text-right tabular-nums" : ""}`}
                  >
                    {isEditing ? (
                      <EditableCell
                        column={c}
                        recordId={r.id}
                        value={value}
                        save={actions.patch}
                        references={actions.references}
                        label={isReference(c) && typeof value === "number" ? labels[c.references ?? ""]?.[value] : undefined}
                        departure={departure}
                        flush={flush}
                        onDone={(refocus) => {
                          // A save that ends after another cell opened leaves that one alone.
                          setEditing((open) => (open?.id === r.id && open.column === c.name ? null : open));
                          const at = records.findIndex((x) => x.id === r.id);
                          if (refocus && at >= 0) requestAnimationFrame(() => focusCell(at, ci));
                        }}
                      />
                    ) : (
                      <CellText column={c} value={value} labels={labels} />
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
