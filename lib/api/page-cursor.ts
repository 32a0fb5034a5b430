// Cursor pages: the `_after` cursor names the last row of a page by its sort key (every ORDER BY term, ids
// included), and the next page is the rows after it in that order (a keyset WHERE), so its cost does not grow
// with depth and rows inserted earlier in the order do not shift it.
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { invalidField } from "../errors";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef } from "../schema/types";
import type { OrderKey } from "./build-sql";
import type { Sort } from "./parse-query";

type Fragment = RawBuilder<unknown>;

/** Which order a cursor belongs to: a cursor from another `_sort` cannot continue this one. */
const orderSignature = (sort: Sort[]) => sort.map((s) => `${s.desc ? "-" : ""}${s.column.name}`).join(",");

const jsonValue = (key: OrderKey, v: unknown) => (v === null || v === undefined ? null : key.column ? TYPE_SPECS[key.column.type].toJson(v) : Number(v));

/** The cursor after `row` (a page row with its `_k0`, `_k1`, … keys): base64url JSON, opaque to clients. */
export const encodeCursor = (sort: Sort[], keys: OrderKey[], row: Record<string, unknown>) =>
  Buffer.from(JSON.stringify([orderSignature(sort), ...keys.map((k, i) => jsonValue(k, row[`_k${i}`]))])).toString("base64url");

const badCursor = () =>
  invalidField("_after", "invalid_cursor", "_after must be the cursor of this read's Link header (same _sort); start again without _after");

/** The bound values of a cursor, checked against this read's order; anything else is a 422 on `_after`. */
export const decodeCursor = (text: string, sort: Sort[], keys: OrderKey[]): unknown[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed[0] !== orderSignature(sort) || parsed.length !== keys.length + 1) throw badCursor();
  return keys.map((key, i) => {
    const v = parsed[i + 1];
    if (v === null) return null;
    if (!key.column) {
      if (!Number.isSafeInteger(v)) throw badCursor();
      return v;
    }
    if (typeof v === "object") throw badCursor();
    const check = TYPE_SPECS[key.column.type].fromQuery(String(v), key.column);
    if (!check.ok) throw badCursor();
    return check.value;
  });
};

/** The comparison form of a bound value: what `sortKey` does to the column, done to the value. */
const valueKey = (udb: UserDb, column: ColumnDef | undefined, v: unknown): Fragment => {
  const kind = column ? TYPE_SPECS[column.type].sort : "plain";
  if (kind !== "text" && kind !== "enum") return sql`${v}`;
  return udb.engine === "mysql" ? sql`CONVERT(${v} USING utf8mb4) COLLATE utf8mb4_general_ci` : sql`upper(${v})`;
};

const any = (parts: Fragment[]) => (parts.length === 0 ? sql`1 = 0` : parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`);

/**
 * Rows strictly after `values` in the order of `keys`, NULLs first ascending and last descending (where both
 * engines put them): for each key, "beyond on this key" OR "equal on it and after on the rest".
 */
export const afterSql = (udb: UserDb, keys: OrderKey[], values: unknown[]): Fragment => {
  const from = (i: number): Fragment => {
    const k = keys[i];
    const v = values[i];
    const rest = i + 1 < keys.length ? from(i + 1) : undefined;
    if (v === null) {
      const same = sql`${k.expr} IS NULL`;
      return any([...(k.desc ? [] : [sql`${k.expr} IS NOT NULL`]), ...(rest ? [sql`(${same} AND ${rest})`] : [])]);
    }
    const vk = valueKey(udb, k.column, v);
    const beyond = k.desc ? sql`(${k.key} < ${vk} OR ${k.expr} IS NULL)` : sql`${k.key} > ${vk}`;
    const after = any([beyond, ...(rest ? [sql`(${k.key} = ${vk} AND ${rest})`] : [])]);
    // A leading bound the engine can seek an index with (ascending, on a plain column).
    return !k.desc && rest && (!k.column || TYPE_SPECS[k.column.type].sort === "plain") ? sql`(${k.key} >= ${vk} AND ${after})` : after;
  };
  return from(0);
};

/** What `afterSql` binds, in order, without building it (so a cursor page can reuse its compiled text). */
export const afterParams = (keys: OrderKey[], values: unknown[]): unknown[] => {
  const from = (i: number): unknown[] => {
    const v = values[i];
    const rest = i + 1 < keys.length ? from(i + 1) : undefined;
    if (v === null) return rest ?? [];
    const k = keys[i];
    const lead = !k.desc && rest && (!k.column || TYPE_SPECS[k.column.type].sort === "plain") ? [v] : [];
    return [...lead, v, ...(rest ? [v, ...rest] : [])];
  };
  return from(0);
};

/** Everything about a cursor that changes `afterSql`'s text: which of its values are NULL. */
export const afterShape = (values: unknown[]) => values.map((v) => (v === null ? "n" : "v")).join("");

/** `Link: <…>; rel="next"`: this request's URL with `_after` set to the cursor and `_offset` dropped. */
export const nextLink = (url: { origin: string; pathname: string; query: URLSearchParams }, cursor: string) => {
  const params = new URLSearchParams(url.query);
  params.delete("_offset");
  params.set("_after", cursor);
  return `<${url.origin}${url.pathname}?${params.toString()}>; rel="next"`;
};
