"use client";
import type { RecordsPage } from "../api/use-records";
import type { RecordsQuery } from "./build-query";
import { CursorPagination } from "./cursor-pagination";
import { Pagination } from "./pagination";
import { CURSOR_PAGING_FROM, type useCursorPages } from "./use-cursor-pages";

type Props = {
  query: RecordsQuery;
  page: RecordsPage;
  /** The page shown is the previous one while the next loads: no cursor is taken from it then. */
  loading: boolean;
  cursor: ReturnType<typeof useCursorPages>;
  total: number | null;
  onQuery: (next: RecordsQuery) => void;
  /** A move by cursor (the query stays, the rows change). */
  onCursor: () => void;
};

/** Offset paging with page numbers, or past CURSOR_PAGING_FROM matching rows (or once walking) cursor paging. */
export const GridPaging = ({ query, page, loading, cursor, total, onQuery, onCursor }: Props) => {
  const { offset, limit } = query;
  if (cursor.depth === 0 && (total === null || total <= CURSOR_PAGING_FROM)) {
    return <Pagination offset={offset} limit={limit} shown={page.rows.length} total={total} onChange={(p) => onQuery({ ...query, ...p })} />;
  }
  const next = page.next;
  return (
    <CursorPagination
      page={Math.floor(offset / limit) + 1 + cursor.depth}
      limit={limit}
      shown={page.rows.length}
      total={total}
      hasNext={!!next && !loading}
      onNext={() => (onCursor(), cursor.next(next!))}
      onPrevious={() => (cursor.depth > 0 ? (onCursor(), cursor.previous()) : onQuery({ ...query, offset: Math.max(0, offset - limit) }))}
      onOffset={(p) => (cursor.restart(), onQuery({ ...query, ...p }))}
    />
  );
};
