"use client";
import { type FormEvent, useState } from "react";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { PAGE_SIZES } from "./build-query";

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
  const [jump, setJump] = useState("");
  const [jumpError, setJumpError] = useState<string | null>(null);
  const go = (p: number) => onChange({ offset: (p - 1) * limit, limit });
  const submitJump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jump);
    if (!/^\d+$/.test(jump) || n < 1 || (pages !== null && n > pages)) return setJumpError(`Enter a page from 1 to ${pages ?? "the last"}`);
    setJumpError(null);
    setJump("");
    go(n);
  };
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p>
        {shown === 0 ? "No records" : `Showing ${offset + 1}–${offset + shown}`}
        {total !== null && ` of ${total}`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex items-center gap-2 whitespace-nowrap">
          Rows per page
          <SelectInput className="w-20" value={limit} onChange={(e) => onChange({ offset: 0, limit: Number(e.target.value) })}>
            {PAGE_SIZES.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </SelectInput>
        </label>
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
        <form onSubmit={submitJump} className="flex items-center gap-1">
          <label htmlFor="jump-page" className="whitespace-nowrap">
            Go to page
          </label>
          <TextInput
            id="jump-page"
            inputMode="numeric"
            className="w-16"
            value={jump}
            onChange={(e) => setJump(e.target.value)}
            invalid={!!jumpError}
            aria-describedby={jumpError ? "jump-page-error" : undefined}
          />
          <Button size="sm" type="submit">
            Go
          </Button>
        </form>
        {jumpError && (
          <p id="jump-page-error" role="alert" className="w-full text-right text-xs text-red-700">
            {jumpError}
          </p>
        )}
      </div>
    </nav>
  );
};
