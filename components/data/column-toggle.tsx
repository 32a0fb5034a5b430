"use client";
import { usePopover } from "../ui/use-popover";

type Props = { columns: string[]; hidden: Set<string>; onChange: (hidden: Set<string>) => void };

/** Hide and show the grid's columns (kept in the page URL, and in saved views). */
export const ColumnToggle = ({ columns, hidden, onChange }: Props) => {
  const { open, setOpen, root } = usePopover();
  return (
    <div ref={root} className="relative" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        Columns{hidden.size > 0 && <span className="text-slate-600">({hidden.size} hidden)</span>}
      </button>
      {open && (
        <fieldset className="absolute z-30 mt-1 max-h-72 w-52 overflow-y-auto rounded-md border border-slate-200 bg-white p-2 shadow-lg">
          <legend className="sr-only">Shown columns</legend>
          {columns.map((c) => (
            <label key={c} className="flex items-center gap-2 rounded px-1 py-1 font-mono text-xs text-slate-800 hover:bg-slate-50">
              <input
                type="checkbox"
                className="size-4 accent-indigo-600"
                checked={!hidden.has(c)}
                onChange={(e) => onChange(new Set(e.target.checked ? [...hidden].filter((h) => h !== c) : [...hidden, c]))}
              />
              {c}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
};
