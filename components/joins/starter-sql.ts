import type { Table } from "../api/types";
import { isOrderable, isReference } from "@/lib/schema/type-traits";

/**
 * A first query that runs on this database: the first reference between two tables joined on it, showing a
 * column of each; without references, the first two tables joined on their ids.
 */
export const starterSql = (tables: Table[]) => {
  const owner = tables.find((t) => t.columns.some((c) => isReference(c) && c.references && c.references !== t.name));
  const ref = owner?.columns.find((c) => isReference(c) && c.references !== owner.name);
  const [a, b] = owner && ref ? [owner, tables.find((t) => t.name === ref.references)] : [tables[0], tables[1]];
  if (!a || !b) return "SELECT t.id\nFROM your_table AS t";
  const shown = (t: Table) => t.columns.find(isOrderable)?.name ?? "id";
  const on = ref ? `a.${ref.name} = b.id` : "a.id = b.id";
  const [x, y] = [shown(a), shown(b)];
  const second = y === x ? `${b.name}_${y}` : y;
  return `SELECT a.${x} AS ${x}, b.${y} AS ${second}\nFROM ${a.name} AS a\nINNER JOIN ${b.name} AS b ON ${on}`;
};
