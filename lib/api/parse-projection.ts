import type { ColumnDef } from "../schema/types";
import { isReference } from "../schema/type-traits";

export const MAX_EXPAND = 5;

export type Fail = (field: string, code: string, message: string) => void;

/** `_select=a,b`: the output columns by name, `id` always among them when there is one; unknown names fail. */
export const parseSelect = (raw: string, columns: Map<string, ColumnDef>, fail: Fail): Set<string> => {
  const picked = new Set<string>(columns.has("id") ? ["id"] : []);
  for (const name of raw.split(",")) {
    if (name === "") fail("_select", "invalid_value", "_select lists column names separated by commas, e.g. _select=id,title");
    else if (!columns.has(name)) fail("_select", "unknown_column", `cannot select "${name}": no such column`);
    else picked.add(name);
  }
  return picked;
};

/** `_expand=ref_a,ref_b`: reference columns only, at most MAX_EXPAND, each once. */
export const parseExpand = (raw: string, columns: Map<string, ColumnDef>, fail: Fail): ColumnDef[] => {
  const picked = new Map<string, ColumnDef>();
  for (const name of raw.split(",")) {
    const column = columns.get(name);
    if (!column) fail("_expand", "unknown_column", `cannot expand "${name}": no such column`);
    else if (!isReference(column) || !column.references) fail("_expand", "not_a_reference", `cannot expand "${name}": only reference columns expand`);
    else picked.set(name, column);
  }
  if (picked.size > MAX_EXPAND) fail("_expand", "too_many", `_expand takes at most ${MAX_EXPAND} columns (got ${picked.size})`);
  return [...picked.values()];
};
