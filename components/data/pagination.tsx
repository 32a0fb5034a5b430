"use client";
import { Button } from "../ui/button";
import { JumpToPage, PageSizeSelect } from "./page-controls";

type Props = { offset: number; limit: number; shown: number; total: number | null; onChange: (page: { offset: number; limit: number }) => void };

/** Page numbers to offer: the first, the last, and two either side of the current one; gaps as null. */
export const pageWindow = (current: number, pages: number): (number | null)[] => {
  const wanted = [...new Set([1, current - 2, current - 1, current, current + 1, current + 2, pages])].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  return wanted.flatMap((p, i) => (i > 0 && p - wanted[i - 1] > 1 ? [null, p] : [p]));
};

/** "Showing 26–50 of 520", page size, previous/next, page numbers and "Go to page" (`_offset` / `_limit`). */
export const Pagination = ({ offset, limit, shown, total, onChange }: Props) => {
  const page = Math.floor(offset / limit) + 1;
  const pages = total === null ? null : Math.max(1, Math.ceil(total / limit));
  const hasNext = pages === null ? shown === limit : page < pages;
  const go = (p: number) => onChange({ offset: (p - 1) * limit, limit });
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p>
        {shown === 0 ? "No records" : `Showing ${offset + 1}–${offset + shown}`}
        {total !== null && ` of ${total}`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <PageSizeSelect limit={limit} onChange={(n) => onChange({ offset: 0, limit: n })} />
        <Button size="sm" disabled={offset === 0} onClick={() => onChange({ offset: Math.max(0, offset - limit), limit })}>
          Previous
        </Button>
        {pages !== null && (
          <ul className="flex items-center gap-1">
            {pageWindow(page, pages).map((p, i) =>
              p === null ? (
                <li key={`gap${i}`} aria-hidden className="px-1 text-slate-600">
                  …
                </li>
              ) : (
                <li key={p}>
                  <Button size="sm" variant={p === page ? "primary" : "ghost"} aria-current={p === page ? "page" : undefined} aria-label={`Page ${p}`} onClick={() => go(p)}>
                    {p}
                  </Button>
                </li>
              ),
            )}
          </ul>
        )}
        <Button size="sm" disabled={!hasNext} onClick={() => onChange({ offset: offset + limit, limit })}>
          Next
        </Button>
        <JumpToPage pages={pages} onGo={go} />
      </div>
    </nav>
  );
};
