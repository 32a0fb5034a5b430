// The group-by summary's read: `GET /{table}/_aggregate` with the grid's own filters, a count and (optionally)
// a sum per value of one column, the largest groups first. Pure: the component sends what this builds.
import { TYPE_SPECS } from "@/lib/schema/column-types";
import type { Column, Table } from "../api/types";

/** Groups shown; one more is read to know whether others follow. */
export const GROUP_LIMIT = 20;

const NOT_FILTERS = new Set(["_sort", "_limit", "_offset", "_after", "_expand", "_select"]);
const NUMERIC: Column["type"][] = ["int", "bigint", "decimal", "float"];
const FIRST_CHOICE: Column["type"][] = ["dropdown", "boolean", "reference"];

/** The filters of a grid query string, whatever their form, without its paging, sort and projection. */
export const filtersOf = (queryString: string) =>
  queryString
    .split("&")
    .filter((part) => part && !NOT_FILTERS.has(decodeURIComponent(part.split("=")[0])))
    .join("&");

/** Columns a summary can group by: any the API can compare (not JSON, not passwords). */
export const groupableColumns = (table: Pick<Table, "columns">) => table.columns.filter((c) => TYPE_SPECS[c.type].sort !== "none");

/** Columns a summary can add up. */
export const summableColumns = (table: Pick<Table, "columns">) => table.columns.filter((c) => NUMERIC.includes(c.type));

/** The column grouped at first: a dropdown, boolean or reference (few values), else the first groupable one. */
export const defaultGroupColumn = (table: Pick<Table, "columns">) => {
  const groupable = groupableColumns(table);
  return (groupable.find((c) => FIRST_CHOICE.includes(c.type)) ?? groupable[0])?.name;
};

/** `_group=…&_agg=count[,sum:…]&_sort=-count,…&_limit=…` and the grid's filters. */
export const aggregateQuery = ({ filters, group, sum }: { filters: string; group: string; sum?: string }) =>
  [`_group=${encodeURIComponent(group)}`, `_agg=count${sum ? `,sum:${encodeURIComponent(sum)}` : ""}`, `_sort=-count,${encodeURIComponent(group)}`, `_limit=${GROUP_LIMIT + 1}`, filters]
    .filter(Boolean)
    .join("&");
