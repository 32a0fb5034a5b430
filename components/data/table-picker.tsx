"use client";
import { useRouter } from "next/navigation";
import { useId } from "react";
import type { Table } from "../api/types";
import { SelectInput } from "../ui/field";

type Props = { tables: Table[]; selected: string; basePath: string; counts: Record<string, number | null> };

const rows = (n: number | null | undefined) => (n === undefined || n === null ? "" : ` (${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"})`);

/** On a phone the table list is one drop-down (one line instead of a list), so the records start higher. */
export const TablePicker = ({ tables, selected, basePath, counts }: Props) => {
  const router = useRouter();
  const id = useId();
  return (
    <div className="flex min-w-0 items-center gap-2">
      <label htmlFor={id} className="text-xs font-semibold text-slate-600">
        Table
      </label>
      <SelectInput
        id={id}
        className="h-8 max-w-56 min-w-0 py-1 font-mono text-sm"
        value={selected}
        onChange={(e) => router.push(`${basePath}?table=${encodeURIComponent(e.target.value)}`)}
      >
        {tables.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name}
            {rows(counts[t.name])}
          </option>
        ))}
      </SelectInput>
    </div>
  );
};
