"use client";
import { useEffect, useRef, useState } from "react";
import { TYPE_SPECS } from "@/lib/schema/column-types";
import { MAX_OR_FILTERS } from "@/lib/schema/filter-operators";
import { isSecret } from "@/lib/schema/type-traits";
import { draftKey } from "../schema/column-draft";
import type { Table } from "../api/types";
import type { FilterGroup } from "./build-query";

/** The columns one search reads: text-like columns (those with `_ilike`), as many as one OR group may hold. */
export const searchColumns = (table: Pick<Table, "columns">) =>
  table.columns.filter((c) => !isSecret(c) && TYPE_SPECS[c.type].ops.includes("ilike")).slice(0, MAX_OR_FILTERS).map((c) => c.name);

/** A search term as the data API's own grammar: one `_or` group of `col_ilike=term` over those columns. */
export const searchGroup = (term: string, columns: string[]): FilterGroup | undefined => {
  const text = term.trim();
  if (!text || !columns.length) return undefined;
  return { key: "search", filters: columns.map((column) => ({ key: draftKey(), column, op: "ilike", value: text })) };
};

/** The search box: applies a moment after typing stops (or at once on Enter); Escape clears it. */
export const QuickSearch = ({ term, columns, onSearch }: { term: string; columns: string[]; onSearch: (term: string) => void }) => {
  const [text, setText] = useState(term);
  // The latest callback, so a re-render (a live update, a fetch) never restarts the pause.
  const search = useRef(onSearch);
  useEffect(() => {
    search.current = onSearch;
  });
  // A search changed elsewhere (a saved view, the back button) shows here; the user's own trailing space stays.
  useEffect(() => setText((t) => (t.trim() === term ? t : term)), [term]);
  useEffect(() => {
    if (text.trim() === term) return;
    const timer = setTimeout(() => search.current(text.trim()), 350);
    return () => clearTimeout(timer);
  }, [text, term]);
  const shown = columns.slice(0, 3).join(", ") + (columns.length > 3 ? ", …" : "");
  return (
    <input
      type="search"
      aria-label="Search the text columns"
      title={`Searches ${columns.join(", ")} (contains, any case)`}
      placeholder={`Search ${shown}`}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") onSearch(text.trim());
        if (e.key === "Escape") (setText(""), onSearch(""));
      }}
      className="h-8 min-w-0 flex-1 basis-40 rounded-md border border-slate-300 bg-white px-2.5 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-indigo-500 sm:w-64 sm:flex-none sm:basis-auto"
    />
  );
};
