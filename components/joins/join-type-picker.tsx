"use client";
import { SelectInput } from "../ui/field";

type Props = {
  /** Joined tables in join order (the base is not among them). */
  tables: string[];
  left: string[];
  onChange: (table: string, type: "inner" | "left") => void;
};

/** Inner or left, per joined table: a left join keeps base rows without a match here, their columns empty. */
export const JoinTypePicker = ({ tables, left, onChange }: Props) =>
  tables.length === 0 ? null : (
    <section aria-label="Join types" className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <span className="text-slate-700">Join type:</span>
      {tables.map((table) => (
        <label key={table} className="inline-flex items-center gap-2">
          <span className="font-mono text-xs text-slate-800">{table}</span>
          <SelectInput
            aria-label={`Join type for ${table}`}
            className="w-56"
            value={left.includes(table) ? "left" : "inner"}
            onChange={(e) => onChange(table, e.target.value === "left" ? "left" : "inner")}
          >
            <option value="inner">Inner (matches only)</option>
            <option value="left">Left (keep all rows)</option>
          </SelectInput>
        </label>
      ))}
    </section>
  );
