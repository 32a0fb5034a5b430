"use client";
import type { Table } from "../api/types";
import { useRecords, useRecordTotal } from "../api/use-records";
import { filtersOf } from "./group-summary-query";
import { expandColumns } from "./reference-display";
import { cursorQuery, useCursorPages } from "./use-cursor-pages";

type Options = { instance: string; table: Table; queryString: string; hidden: Set<string>; apiKey: string };

/**
 * The read of the grid's page: its query (on a cursor page `_after` in place of `_offset`) with the shown
 * reference columns expanded in it; on cursor pages the total is read on its own, since they skip the count.
 */
export const useGridPage = ({ instance, table, queryString, hidden, apiKey }: Options) => {
  const cursor = useCursorPages(queryString);
  const expand = expandColumns(table, hidden);
  const pageQuery = `${cursorQuery(queryString, cursor.after)}${expand.length ? `&_expand=${expand.join(",")}` : ""}`;
  const records = useRecords(instance, table.name, pageQuery, apiKey, { count: cursor.depth === 0 });
  const filters = filtersOf(queryString);
  const cursorTotal = useRecordTotal(instance, table.name, filters, apiKey, cursor.depth > 0);
  const total = cursor.depth > 0 ? (cursorTotal.data ?? null) : (records.data?.total ?? null);
  return { records, cursor, pageQuery, filters, total };
};
