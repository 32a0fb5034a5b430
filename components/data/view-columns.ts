// The columns a saved view names that its table no longer has (renamed or dropped since it was saved). The grid
// cannot apply those filters and sorts, so the filter bar names them instead of dropping them silently.
import { FILTER_OPERATORS, splitFilterParam } from "@/lib/schema/filter-operators";

export type ViewColumnUse = "filter" | "sort" | "hidden";
export type MissingColumn = { column: string; uses: ViewColumnUse[] };

const SUFFIXES = FILTER_OPERATORS.map((o) => o.suffix)
  .filter(Boolean)
  .sort((a, b) => b.length - a.length);

/** The column an unknown filter parameter meant: its name less the longest operator suffix it ends with. */
const columnOfParam = (param: string) => {
  const suffix = SUFFIXES.find((s) => param.endsWith(s) && param.length > s.length);
  return suffix ? param.slice(0, -suffix.length) : param;
};

/** What in the view (filters, OR groups, sort, hidden columns) names a column outside `columns`. */
export const missingViewColumns = (view: { query: string; hidden_columns: string[] }, columns: string[]): MissingColumn[] => {
  const known = new Set(columns);
  const found = new Map<string, Set<ViewColumnUse>>();
  const note = (column: string, use: ViewColumnUse) => found.set(column, (found.get(column) ?? new Set()).add(use));
  const scan = (params: URLSearchParams) => {
    for (const [key, value] of params) {
      if (key === "_or") scan(new URLSearchParams(value));
      else if (key === "_sort") {
        for (const column of value.split(",").map((item) => item.replace(/^-/, ""))) if (column && !known.has(column)) note(column, "sort");
      } else if (!key.startsWith("_") && !splitFilterParam(key, (name) => known.has(name))) note(columnOfParam(key), "filter");
    }
  };
  scan(new URLSearchParams(view.query));
  for (const column of view.hidden_columns) if (!known.has(column)) note(column, "hidden");
  return [...found].map(([column, uses]) => ({ column, uses: [...uses] }));
};

const USE_WORDS: Record<ViewColumnUse, string> = { filter: "its filter", sort: "its sort", hidden: "hidden" };

/** One sentence for the filter bar, naming each missing column and what of the view used it. */
export const describeMissing = (name: string, missing: MissingColumn[]) => {
  const list = missing.map((m) => `"${m.column}" (${m.uses.map((u) => USE_WORDS[u]).join(", ")})`).join(", ");
  const plural = missing.length > 1;
  return `View "${name}" uses ${plural ? "columns" : "a column"} this table no longer has (renamed or dropped): ${list}. ${plural ? "Those parts are" : "That part is"} not applied; the rest is. Save changes to the view to keep it as shown.`;
};
