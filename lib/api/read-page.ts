// The page stage shared by table and join reads: the SQL of one page (projection, order keys, keyset), then
// its JSON (made where the rows are read, or from records with their expansions) and the Link to the next page.
import { type CompiledQuery, type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import type { Access } from "../rls/access";
import type { OutputColumns } from "../db/page-json.mjs";
import { TO_JSON } from "../schema/to-json.mjs";
import type { ColumnDef, DatabaseSchema } from "../schema/types";
import { type ColumnRef, type OrderKey, orderKeys, pageSql, whereSql } from "./build-sql";
import { expandRecords } from "./expand-records";
import { afterSql, decodeCursor, encodeCursor, nextLink, valuesOfRow } from "./page-cursor";
import type { ReadQuery } from "./parse-query";

type Row = Record<string, unknown>;

/** What a page reads from: a table (`ref` = bare names, id breaks ties) or a join (aliases, its own tie-breakers). */
export type PageSource = { from: RawBuilder<unknown>; ref: ColumnRef; all: ColumnDef[]; tieBreak?: RawBuilder<unknown>[] };

/** The columns a page selects: the projection plus the reference columns it expands (all when no `_select`). */
export const pageColumns = (all: ColumnDef[], query: ReadQuery) => {
  if (!query.select) return all;
  const names = new Set([...query.select, ...(query.expand ?? []).map((c) => c.name)]);
  return all.filter((c) => names.has(c.name));
};

/**
 * One row more than `_limit` is read: its presence says there is a next page. The cursor is checked here (a bad
 * one is a 422 before the page's SQL runs; one naming its row by id reads that row's key first); `sql` builds the
 * statement only when asked (the hot path reuses its text).
 */
export const planPage = async (udb: UserDb, source: PageSource, query: ReadQuery, extra: RawBuilder<unknown>[]) => {
  const keys = orderKeys(udb, query.sort, source.ref, source.tieBreak);
  const cursor = query.after === undefined ? undefined : decodeCursor(query.after, query.sort, keys);
  const values = cursor && ("row" in cursor ? await valuesOfRow(udb, source.from, keys, cursor.row, extra) : cursor.values);
  const after = values ? [afterSql(udb, keys, values)] : [];
  const build = () => {
    const select = sql.join(pageColumns(source.all, query).map((c) => sql`${source.ref(c)} AS ${sql.id(c.name)}`));
    const where = whereSql(udb, query.filters, [...extra, ...after], source.ref);
    return pageSql({ select, from: source.from, where, keys, limit: query.limit + 1, offset: query.offset });
  };
  return { keys, values, sql: build };
};

export type FinishPage = {
  udb: UserDb;
  schema: DatabaseSchema;
  rows: Row[];
  query: ReadQuery;
  keys: OrderKey[];
  /** Already without what the caller may not see. */
  output: OutputColumns;
  access: Access;
  url?: { origin: string; pathname: string; query: URLSearchParams };
};

/** The output columns `_select` keeps (all without it). */
const shownOutput = (output: OutputColumns, select: Set<string> | undefined) => (select ? output.filter(([name]) => select.has(name)) : output);

/** Records of the page (projected, expanded) and the Link header when another page follows. */
export const finishPage = async ({ udb, schema, rows, query, keys, output, access, url }: FinishPage) => {
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const shown = shownOutput(output, query.select);
  const records = page.map((row) => {
    const record: Row = {};
    for (const [name, type] of shown) record[name] = TO_JSON[type](row[name]);
    return record;
  });
  if (query.expand?.length) await expandRecords(udb, schema, records, page, query.expand, access);
  const headers: Record<string, string> = {};
  if (more && url) headers.link = nextLink(url, encodeCursor(query.sort, keys, page[page.length - 1]));
  return { records, headers };
};

/**
 * A page's JSON body and headers. Without `_expand` (which needs the records as objects) SQLite shapes the page
 * where it reads its rows (scanPage: a reader thread), so only the text reaches this thread; else finishPage.
 */
export const readPage = async ({ compiled, ...page }: Omit<FinishPage, "rows"> & { compiled: CompiledQuery }) => {
  const { udb, query, keys, output, url } = page;
  if (udb.scanPage && !query.expand?.length) {
    const { json, more, last } = await udb.scanPage(compiled, shownOutput(output, query.select), query.limit);
    const headers: Record<string, string> = {};
    if (more && url && last) headers.link = nextLink(url, encodeCursor(query.sort, keys, last));
    return { body: json, headers };
  }
  const { records, headers } = await finishPage({ ...page, rows: (await scanRows(udb, compiled)) as Row[] });
  return { body: JSON.stringify(records), headers };
};
