"use client";
import { useState } from "react";

/**
 * Past this many matching rows the grid pages by cursor (`_after` from the `Link: rel="next"` header): each page
 * costs the same however deep, and rows inserted meanwhile do not shift it. Below it, offsets and page numbers.
 */
export const CURSOR_PAGING_FROM = 10_000;

/** The page's query: the grid's own, or on a cursor page the same with `_after` in place of `_offset`. */
export const cursorQuery = (base: string, after: string | undefined) =>
  after === undefined ? base : [...base.split("&").filter((p) => p && !p.startsWith("_offset=")), `_after=${encodeURIComponent(after)}`].join("&");

/**
 * The cursors of the pages walked past the grid's own (offset) page, as a stack: Next pushes the Link's cursor,
 * Previous pops one, and a new query (filters, sort, size or offset) starts again from its own page.
 */
export const useCursorPages = (base: string) => {
  const [walk, setWalk] = useState<{ base: string; cursors: string[] }>({ base, cursors: [] });
  const cursors = walk.base === base ? walk.cursors : [];
  return {
    after: cursors.at(-1),
    /** Pages walked by cursor beyond the grid's offset page. */
    depth: cursors.length,
    next: (cursor: string) => setWalk({ base, cursors: [...cursors, cursor] }),
    previous: () => setWalk({ base, cursors: cursors.slice(0, -1) }),
    /** Back to the grid's own page (before moving to another offset, which may equal this one). */
    restart: () => setWalk({ base, cursors: [] }),
  };
};
