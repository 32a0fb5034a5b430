"use client";
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { createContext, useContext } from "react";
import type { Table } from "../api/types";
import type { CanvasState } from "./canvas-definition";

export type CanvasActions = {
  state: CanvasState;
  toggleOutput: (ref: string) => void;
  renameOutput: (ref: string, as: string) => void;
  removeTable: (table: string) => void;
};

export const CanvasContext = createContext<CanvasActions | null>(null);

const handleClass = "!size-2.5 !border-indigo-500 !bg-white";

/** A table on the canvas: one row per column, with a handle on each side to drag key pairs from and to. */
export const TableNode = ({ data }: NodeProps) => {
  const ctx = useContext(CanvasContext)!;
  const table = data.table as Table;
  const columns = ["id", ...table.columns.map((c) => c.name), "created_at", "updated_at"];
  const isBase = ctx.state.tables[0] === table.name;
  return (
    <div className="w-64 rounded-md border border-slate-300 bg-white text-xs shadow-sm" aria-label={`Table ${table.name}`} role="group">
      <div className="flex items-center justify-between rounded-t-md border-b border-slate-200 bg-slate-50 px-2 py-1.5">
        <span className="font-semibold text-slate-800">
          {table.name}
          {isBase && <span className="ml-1.5 rounded bg-indigo-100 px-1 text-[10px] font-medium text-indigo-700">base</span>}
        </span>
        <button type="button" className="nodrag text-slate-600 hover:text-red-600" aria-label={`Remove ${table.name}`} onClick={() => ctx.removeTable(table.name)}>
          ×
        </button>
      </div>
      <ul>
        {columns.map((column) => {
          const ref = `${table.name}.${column}`;
          const output = ctx.state.outputs.find((o) => o.column === ref);
          return (
            <li key={column} className="relative flex h-8 items-center gap-1.5 border-b border-slate-100 px-2 last:border-0">
              <Handle type="target" position={Position.Left} id={`${ref}:l`} className={handleClass} />
              <input
                type="checkbox"
                className="nodrag size-3.5 accent-indigo-600"
                aria-label={`Output ${ref}`}
                checked={Boolean(output)}
                onChange={() => ctx.toggleOutput(ref)}
              />
              <span className="min-w-0 flex-1 truncate font-mono text-slate-700">{column}</span>
              {output && (
                <input
                  className="nodrag w-24 rounded border border-slate-300 px-1 py-0.5 font-mono text-[11px]"
                  aria-label={`Output name for ${ref}`}
                  value={output.as}
                  onChange={(e) => ctx.renameOutput(ref, e.target.value)}
                />
              )}
              <Handle type="source" position={Position.Right} id={`${ref}:r`} className={handleClass} />
            </li>
          );
        })}
      </ul>
    </div>
  );
};
