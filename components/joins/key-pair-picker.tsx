"use client";
import { useState } from "react";
import type { Table } from "../api/types";
import { Button } from "../ui/button";
import { SelectInput } from "../ui/field";

type Props = {
  /** Tables on the canvas. */
  tables: Table[];
  pairs: [string, string][];
  /** Pairs the schema's references suggest. */
  proposals: [string, string][];
  onAdd: (a: string, b: string) => void;
  onRemove: (a: string, b: string) => void;
};

const refsOf = (tables: Table[]) => tables.flatMap((t) => ["id", ...t.columns.map((c) => c.name), "created_at", "updated_at"].map((c) => `${t.name}.${c}`));

/** Key pairs without a mouse: proposals from references, two column selects, and the pairs made so far. */
export const KeyPairPicker = ({ tables, pairs, proposals, onAdd, onRemove }: Props) => {
  const [left, setLeft] = useState("");
  const [right, setRight] = useState("");
  const refs = refsOf(tables);
  const sameTable = left && right && left.split(".")[0] === right.split(".")[0];
  return (
    <section aria-label="Key pairs" className="space-y-2 rounded-md border border-slate-200 bg-white p-3 text-sm">
      {proposals.length > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-slate-700">From references:</span>
          {proposals.map(([a, b]) => (
            <Button key={`${a}=${b}`} size="sm" onClick={() => onAdd(a, b)}>
              Use {a} = {b}
            </Button>
          ))}
        </div>
      )}
      {tables.length >= 2 && (
        <div className="flex flex-wrap items-center gap-2">
          <SelectInput aria-label="Key pair: first column" className="w-56" value={left} onChange={(e) => setLeft(e.target.value)}>
            <option value="">Column…</option>
            {refs.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </SelectInput>
          <span aria-hidden>=</span>
          <SelectInput aria-label="Key pair: second column" className="w-56" value={right} onChange={(e) => setRight(e.target.value)}>
            <option value="">Column…</option>
            {refs.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </SelectInput>
          <Button
            size="sm"
            disabled={!left || !right || !!sameTable}
            onClick={() => {
              onAdd(left, right);
              setLeft("");
              setRight("");
            }}
          >
            Add key pair
          </Button>
          {sameTable && <span className="text-xs text-red-700">Pick columns of two different tables.</span>}
        </div>
      )}
      {pairs.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Key pairs made">
          {pairs.map(([a, b]) => (
            <li key={`${a}=${b}`} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2 font-mono text-xs text-indigo-900 ring-1 ring-indigo-200">
              {a} = {b}
              <button type="button" aria-label={`Remove key pair ${a} = ${b}`} onClick={() => onRemove(a, b)} className="grid size-5 place-items-center rounded-full hover:bg-indigo-200">
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-700">No key pairs yet: drag between column handles on the canvas, or pick two columns above.</p>
      )}
    </section>
  );
};
