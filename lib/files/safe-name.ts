// The stored name of an uploaded file: the client's name made safe (no path, no control or direction-override
// characters, ASCII letters, digits, `_` and `-`, at most 40 characters and a short extension) plus a random
// suffix, so two uploads never share a name and a name is always one plain URL path segment.
import { randomBytes } from "node:crypto";

const MAX_BASE = 40;
const EXTENSION = /\.([a-z0-9]{1,10})$/;
/** What a stored name looks like: the download path refuses anything else before it reads a row. */
export const STORED_NAME = /^[A-Za-z0-9_-]{1,40}_[a-z0-9]{8}(\.[a-z0-9]{1,10})?$/;

const randomSuffix = () => {
  const bytes = randomBytes(8);
  return [...bytes].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
};

/** The client's file name reduced to a safe base and extension (both possibly empty). */
export const cleanFileName = (original: string) => {
  const last = original.split(/[/\\]/).pop() ?? "";
  // Accents come off (é → e); every other character outside the safe set becomes `_`.
  const ascii = last.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const lower = ascii.toLowerCase();
  const ext = EXTENSION.exec(lower)?.[1];
  const stem = ext ? ascii.slice(0, -(ext.length + 1)) : ascii;
  const base = stem.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/_+/g, "_").replace(/^[_-]+|[_-]+$/g, "").slice(0, MAX_BASE).replace(/[_-]+$/, "");
  return { base: base || "file", ext: ext ? `.${ext}` : "" };
};

/** A new stored name for a file the client called `original`. */
export const storedFileName = (original: string) => {
  const { base, ext } = cleanFileName(original);
  return `${base}_${randomSuffix()}${ext}`;
};
