// The rules of a file column's options that a zod property cannot say alone: MIME patterns and thumbnail sizes
// in their one spelling, and the thumb sizes a download may ask for. Pure: the contract and the download path share it.
import type { ColumnDef } from "./types";

type Problem = { path: (string | number)[]; code: string; message: string };

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;
/** `WxH` crops to fill, `Wx0` / `0xH` keep the ratio, `WxHf` fits inside; each side at most MAX_THUMB_SIDE pixels. */
/** The largest thumbnail side the file store makes (lib/files/thumbs.ts). */
export const MAX_THUMB_SIDE = 2000;
export const THUMB_SIZE = /^(0|[1-9]\d{0,3})x(0|[1-9]\d{0,3})(f?)$/;

export const fileOptionProblems = (c: Pick<ColumnDef, "accept" | "thumbs">): Problem[] => {
  const problems: Problem[] = [];
  for (const [i, pattern] of (c.accept ?? []).entries()) {
    if (!MIME_PATTERN.test(pattern)) problems.push({ path: ["accept", i], code: "invalid_value", message: `accept "${pattern}" is not a MIME type or pattern like image/* (lower case)` });
  }
  for (const [i, size] of (c.thumbs ?? []).entries()) {
    const m = THUMB_SIZE.exec(size);
    const sides = m ? [Number(m[1]), Number(m[2])] : [];
    if (!m || sides.every((n) => n === 0) || sides.some((n) => n > MAX_THUMB_SIDE) || (m[3] === "f" && sides.includes(0))) {
      problems.push({ path: ["thumbs", i], code: "invalid_value", message: `thumb "${size}" must be WxH, Wx0, 0xH or WxHf (sides up to ${MAX_THUMB_SIDE}, not both 0)` });
    } else if ((c.thumbs ?? []).indexOf(size) !== i) problems.push({ path: ["thumbs", i], code: "duplicate", message: `thumb "${size}" is listed twice` });
  }
  return problems;
};

/** Whether a sniffed MIME type matches a column's `accept` (any type when it has none). */
export const accepts = (c: Pick<ColumnDef, "accept">, mime: string) =>
  !c.accept || c.accept.some((p) => (p.endsWith("/*") ? mime.startsWith(p.slice(0, -1)) : mime === p));
