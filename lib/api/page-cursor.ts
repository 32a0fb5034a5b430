// Cursor pages: the `_after` cursor names the last row of a page by its sort key (every ORDER BY term, ids
// included), and the next page is the rows after it in that order (a keyset WHERE), so its cost does not grow
// with depth and rows inserted earlier in the order do not shift it. A key too long for a Link names the row
// by its ids instead, and the next page reads that row's key again.
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { invalidField } from "../errors";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef } from "../schema/types";
import { mysqlTextKey, type OrderKey } from "./build-sql";
import type { Sort } from "./parse-query";

type Fragment = RawBuilder<unknown>;

/** Which order a cursor belongs to: a cursor from another `_sort` cannot continue this one. */
const orderSignature = (sort: Sort[]) => sort.map((s) => `${s.desc ? "-" : ""}${s.column.name}`).join(",");

const jsonValue = (key: OrderKey, v: unknown) => (v === null || v === undefined ? null : key.column ? TYPE_SPECS[key.column.type].toJson(v) : Number(v));

/** Past this many bytes of sort values a cursor names its row by ids instead, so a Link stays under 2 KB. */
export const CURSOR_VALUES_MAX_BYTES = 512;

/** The keys that name one row: the tie-breaking ids, or the id column when the sort names it. */
const identityOf = (keys: OrderKey[]) => {
  const ties = keys.flatMap((k, i) => (k.column ? [] : [i]));
  return ties.length ? ties : keys.flatMap((k, i) => (k.column?.name === "id" ? [i] : []));
};

const jsonValues = (keys: OrderKey[], row: Record<string, unknown>) => keys.map((k, i) => jsonValue(k, row[`_k${i}`]));

/**
 * The cursor after `row` (a page row with its `_k0`, `_k1`, … keys): base64url JSON, opaque to clients. Its sort
 * values as they are, or, when they are long, `{"row": [ids]}` (decodeCursor tells the two apart).
 */
export const encodeCursor = (sort: Sort[], keys: OrderKey[], row: Record<string, unknown>) => {
  const text = JSON.stringify([orderSignature(sort), ...jsonValues(keys, row)]);
  if (text.length <= CURSOR_VALUES_MAX_BYTES / 3 || Buffer.byteLength(text) - orderSignature(sort).length <= CURSOR_VALUES_MAX_BYTES) return Buffer.from(text).toString("base64url");
  const ids = identityOf(keys).map((i) => Number(row[`_k${i}`]));
  return Buffer.from(JSON.stringify([orderSignature(sort), { row: ids }])).toString("base64url");
};

const badCursor = () =>
  invalidField("_after", "invalid_cursor", "_after must be the cursor of this read's Link header (same _sort); start again without _after");

export type DecodedCursor = { values: unknown[] } | { row: number[] };

/** A cursor checked against this read's order: its bound values, or the ids of its row; else a 422 on `_after`. */
export const decodeCursor = (text: string, sort: Sort[], keys: OrderKey[]): DecodedCursor => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed[0] !== orderSignature(sort)) throw badCursor();
  const byRow = parsed.length === 2 && parsed[1] !== null && typeof parsed[1] === "object" ? (parsed[1] as { row?: unknown }) : undefined;
  if (byRow) {
    const ids = byRow.row;
    if (Object.keys(byRow).length !== 1 || !Array.isArray(ids) || ids.length !== identityOf(keys).length || !ids.every((id) => Number.isSafeInteger(id))) throw badCursor();
    return { row: ids as number[] };
  }
  if (parsed.length !== keys.length + 1) throw badCursor();
  return { values: checkedValues(parsed.slice(1), keys) };
};

const checkedValues = (parsed: unknown[], keys: OrderKey[]) =>
  keys.map((key, i) => {
    const v = parsed[i];
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

/**
 * The bound values of a by-row cursor: its row's sort key read again, where `extra` (row policies) lets the
 * caller see it. A row gone or hidden since is a 422 on `_after` (the same for both, so ids reveal nothing).
 */
export const valuesOfRow = async (udb: UserDb, from: Fragment, keys: OrderKey[], ids: number[], extra: Fragment[]): Promise<unknown[]> => {
  const select = sql.join(keys.map((k, i) => sql`${k.expr} AS ${sql.id(`_k${i}`)}`));
  const where = [...identityOf(keys).map((k, j) => sql`${keys[k].expr} = ${ids[j]}`), ...extra];
  const [row] = await scanRows<Record<string, unknown>>(udb, sql`SELECT ${select} FROM ${from} WHERE ${sql.join(where, sql` AND `)} LIMIT 1`);
  if (!row) throw invalidField("_after", "cursor_expired", "_after continues from a row that is no longer there; start again without _after");
  // Through the cursor's own JSON and checks, so these values bind exactly as a short cursor's would.
  return checkedValues(JSON.parse(JSON.stringify(jsonValues(keys, row))) as unknown[], keys);
};

/** The comparison form of a bound value: what `sortKey` does to the column, done to the value. */
const valueKey = (udb: UserDb, column: ColumnDef | undefined, v: unknown): Fragment => {
  const kind = column ? TYPE_SPECS[column.type].sort : "plain";
  if (kind !== "text" && kind !== "enum") return sql`${v}`;
  if (udb.engine !== "mysql") return sql`upper(${v})`;
  return kind === "text" ? mysqlTextKey(column!, sql`CONVERT(${v} USING utf8mb4)`) : sql`CONVERT(${v} USING utf8mb4) COLLATE utf8mb4_general_ci`;
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
