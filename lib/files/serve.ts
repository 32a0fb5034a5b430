// Serving one stored file over HTTP: validators (a strong ETag, If-None-Match → 304), byte ranges (206, 416),
// Cache-Control, Content-Disposition with an RFC 6266 filename, thumbs, and the rules that keep a file from
// running in the API's origin (markup and scripts always downloaded; nosniff and a sandbox CSP on every file).
// The body streams from the store; nothing holds the whole file.
import { createHash } from "node:crypto";
import { ApiError, notFound } from "../errors";
import type { CoreResponse } from "../http/core-types";
import type { FileStore } from "./file-store";
import { ensureThumb, resolveThumb } from "./thumbs";

/** A stored file as a row holds it. */
export type FileObject = { name: string; size: number; type: string };

export type ServeFileInput = {
  store: FileStore;
  key: string;
  file: FileObject;
  /** GET or HEAD. */
  method: string;
  /** Lower-case request header → value. */
  header: (name: string) => string | undefined;
  query: URLSearchParams;
  /** The column's `public`: shared caches may keep it. */
  public?: boolean;
  /** The column's `thumbs` (the sizes `?thumb=` may ask for). */
  thumbs?: readonly string[];
};

/** Types a browser would run or render as a document: always an attachment. */
export const isActiveType = (type: string) => {
  const t = type.split(";")[0].trim().toLowerCase();
  return /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/(x-)?javascript|application\/ecmascript|text\/ecmascript)$/.test(t) || t.endsWith("+xml");
};

/** `inline` or `attachment` with the name twice: an ASCII fallback and the exact name as RFC 5987 UTF-8. */
export const contentDisposition = (kind: "inline" | "attachment", name: string) => {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_").replace(/^\s+|\s+$/g, "") || "file";
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
};

/** A strong validator: the same key (a stored name is never reused) and size, and the same variant. */
const etagOf = (key: string, size: number, variant = "") => `"${createHash("sha256").update(`${key}\n${size}\n${variant}`).digest("base64url").slice(0, 27)}"`;

const matchesAny = (header: string | undefined, etag: string) =>
  header !== undefined && (header.trim() === "*" || header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag));

type RangeAsk = { start: number; end: number } | "unsatisfiable" | undefined;

/** One `bytes=` range of a `size`-byte file; several ranges, or another unit, are ignored (the whole file). */
export const parseRange = (header: string | undefined, size: number): RangeAsk => {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m || m[1].includes(",")) return undefined;
  const r = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(m[1]);
  if (!r || (r[1] === "" && r[2] === "")) return "unsatisfiable";
  if (r[1] === "") {
    const suffix = Number(r[2]);
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === "" ? size - 1 : Math.min(Number(r[2]), size - 1);
  return start >= size || Number(r[2] || start) < start ? "unsatisfiable" : { start, end };
};

/** The answer to a GET or HEAD of a stored file; a missing object is 404, a thumb size not allowed 422. */
export const serveFile = async (input: ServeFileInput): Promise<CoreResponse> => {
  const { store, file, header, query } = input;
  let key = input.key;
  let variant = "";
  const thumbAsk = query.get("thumb");
  if (thumbAsk !== null) {
    const spec = resolveThumb(thumbAsk, input.thumbs ?? []);
    const thumb = await ensureThumb(store, key, file.type, file.size, spec);
    if (thumb) [key, variant] = [thumb, spec.spec];
  }
  const stat = await store.stat(key);
  if (!stat) throw notFound("No such file.");
  const size = stat.size;
  const etag = etagOf(key, size, variant);
  const active = isActiveType(file.type);
  const download = active || query.get("download") === "1" || query.get("download") === "true";
  const headers: Record<string, string> = {
    etag,
    "cache-control": input.public ? "public, max-age=3600" : "private, max-age=600",
    "accept-ranges": "bytes",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "content-type": file.type || "application/octet-stream",
    "content-disposition": contentDisposition(download ? "attachment" : "inline", file.name),
  };
  if (matchesAny(header("if-none-match"), etag)) return { status: 304, headers: { etag, "cache-control": headers["cache-control"] } };
  const ifRange = header("if-range");
  const range = ifRange === undefined || ifRange.trim() === etag ? parseRange(header("range"), size) : undefined;
  if (range === "unsatisfiable") {
    throw new ApiError("range_not_satisfiable", `The range is outside the file's ${size} bytes.`, { headers: { "content-range": `bytes */${size}` } });
  }
  const status = range ? 206 : 200;
  const length = range ? range.end - range.start + 1 : size;
  headers["content-length"] = String(length);
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${size}`;
  if (input.method === "HEAD" || length === 0) return { status, headers };
  const got = await store.get(key, range);
  if (!got) throw notFound("No such file.");
  return { status, headers, file: got.body };
};
