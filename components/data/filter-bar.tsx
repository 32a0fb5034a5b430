"use client";
import { type ReactNode, useEffect, useState } from "react";

const OPEN_KEY = "tabula.filters-open";

type Props = { active: number; /** First in the bar (the quick search). */ search?: ReactNode; /** Shown beside the toggle. */ tools?: ReactNode; children: ReactNode };

/**
 * The filter and sort builder behind one toggle, closed by default; this browser remembers the choice. Open, it
 * scrolls within a bounded height (lower on a phone), so a long builder never pushes the rows below the fold.
 */
export const FilterBar = ({ active, search, tools, children }: Props) => {
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(localStorage.getItem(OPEN_KEY) === "1"), []);
  const toggle = () => {
    localStorage.setItem(OPEN_KEY, open ? "0" : "1");
    setOpen(!open);
  };
  return (
    <div className="space-y-2 md:space-y-3">
      <div className="flex flex-wrap items-center gap-2">
      {search}
      <button
        type="button"
        aria-expanded={open}
        aria-controls="filter-panel"
        onClick={toggle}
        className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <span aria-hidden>{open ? "▾" : "▸"}</span> Filters and sort
        {active > 0 && <span className="rounded-full bg-indigo-100 px-1.5 text-[11px] text-indigo-800">{active}</span>}
      </button>
      {tools}
      </div>
      {open && (
        <div id="filter-panel" className="max-h-[min(14rem,26dvh)] space-y-3 overflow-y-auto overscroll-contain md:max-h-[min(22rem,38dvh)]">
          {children}
        </div>
      )}
    </div>
  );
};
