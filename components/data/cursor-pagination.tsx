"use client";
import { Button } from "../ui/button";
import { JumpToPage, PageSizeSelect } from "./page-controls";

type Props = {
  /** The page shown, counted from the first: the offset page plus the pages walked by cursor. */
  page: number;
  limit: number;
  shown: number;
  total: number | null;
  hasNext: boolean;
  onNext: () => void;
  onPrevious: () => void;
  /** Back to an offset page (the first, "Go to page", a new page size): the cursor walk starts again there. */
  onOffset: (page: { offset: number; limit: number }) => void;
};

const n = (v: number) => v.toLocaleString("en-US");

/**
 * Paging of a large table: Next follows the `_after` cursor of the page's Link header, Previous steps back
 * through the cursors walked; "First page" and "Go to page" (an `_offset` read) start a new walk.
 */
export const CursorPagination = ({ page, limit, shown, total, hasNext, onNext, onPrevious, onOffset }: Props) => {
  const first = (page - 1) * limit;
  const pages = total === null ? null : Math.max(1, Math.ceil(total / limit));
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p>
        <span className="font-medium text-slate-900">Page {n(page)}</span>
        {pages !== null && ` of ${n(pages)}`}
        {shown > 0 && ` · rows ${n(first + 1)}–${n(first + shown)}`}
        {total !== null && ` of ${n(total)}`}
        <span className="block text-xs text-slate-600">Large table: Next and Previous follow a cursor, as fast on the last page as on the first.</span>
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <PageSizeSelect limit={limit} onChange={(size) => onOffset({ offset: 0, limit: size })} />
        <Button size="sm" disabled={page === 1} onClick={() => onOffset({ offset: 0, limit })}>
          First page
        </Button>
        <Button size="sm" disabled={page === 1} onClick={onPrevious}>
          Previous
        </Button>
        <Button size="sm" disabled={!hasNext} onClick={onNext}>
          Next
        </Button>
        <JumpToPage pages={pages} onGo={(p) => onOffset({ offset: (p - 1) * limit, limit })} />
      </div>
    </nav>
  );
};
