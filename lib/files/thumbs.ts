// Thumbnails of png, jpeg, webp and gif files: the `thumb` spec grammar (`WxH` crops to fill, `Wx0`/`0xH` keep
// the ratio, `WxHf` fits inside), the sizes a column allows, and making one: once per file and size, cached in
// the store under a key derived from the file's, with concurrent first requests sharing one generation.
import { invalidField } from "../errors";
import type { FileStore } from "./file-store";

export type ThumbSpec = { spec: string; width: number; height: number; mode: "crop" | "fit" | "ratio" };

/** The image types thumbnails are made of (and in: a thumb keeps its file's type). */
export const THUMB_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
/** Largest side of a thumb, and largest file thumbnailed (bigger ones are served whole). */
export const MAX_THUMB_SIDE = 2000;
export const MAX_THUMB_SOURCE_BYTES = 64 * 1024 * 1024;

/** A thumb spec, or undefined when `text` is not one. */
export const parseThumbSpec = (text: string): ThumbSpec | undefined => {
  const m = /^([0-9]{1,4})x([0-9]{1,4})(f?)$/.exec(text);
  if (!m) return undefined;
  const [width, height, fit] = [Number(m[1]), Number(m[2]), m[3] === "f"];
  if (width > MAX_THUMB_SIDE || height > MAX_THUMB_SIDE || (width === 0 && height === 0)) return undefined;
  if (fit && (width === 0 || height === 0)) return undefined;
  if (`${width}x${height}${fit ? "f" : ""}` !== text) return undefined; // one spelling per size: no leading zeros
  return { spec: text, width, height, mode: fit ? "fit" : width === 0 || height === 0 ? "ratio" : "crop" };
};

/** The problems of a column's `thumbs` list, one message per bad entry (for the column's 422). */
export const thumbListProblems = (thumbs: unknown): string[] => {
  if (!Array.isArray(thumbs)) return ["thumbs must be a list of sizes such as \"100x100\"."];
  if (thumbs.length > 20) return ["thumbs may list at most 20 sizes."];
  return thumbs.flatMap((t) =>
    typeof t === "string" && parseThumbSpec(t) ? [] : [`${JSON.stringify(t)} is not a thumb size: use WxH, Wx0, 0xH or WxHf with sides up to ${MAX_THUMB_SIDE}.`],
  );
};

/** The requested thumb when the column allows it; any other size is a 422 on `thumb`. */
export const resolveThumb = (requested: string, allowed: readonly string[]): ThumbSpec => {
  const spec = allowed.includes(requested) ? parseThumbSpec(requested) : undefined;
  if (!spec) {
    const sizes = allowed.length ? `one of ${allowed.join(", ")}` : "none (this column has no thumbs)";
    throw invalidField("thumb", "thumb_not_allowed", `thumb must be ${sizes}.`);
  }
  return spec;
};

/** Where a file's thumbs live: beside it, so deleting `thumbPrefix(key)` with the file removes them all. */
export const thumbPrefix = (key: string) => `${key}.thumbs/`;
export const thumbKey = (key: string, spec: ThumbSpec) => `${thumbPrefix(key)}${spec.spec}`;

/** Deletes files and every thumb made of them. */
export const deleteFilesAndThumbs = async (store: FileStore, keys: string[]) => {
  const thumbs: string[] = [];
  for (const key of keys) for await (const o of store.list(thumbPrefix(key))) thumbs.push(o.key);
  await store.delete([...keys, ...thumbs]);
};

/** How many thumbs this process has made (tests check that concurrent first requests make one). */
export const thumbCounters = { generated: 0 };

const inFlight = new Map<string, Promise<boolean>>();
let running = 0;
const waiting: (() => void)[] = [];
/** At most two thumbs are made at once in a process; the rest wait their turn. */
const withSlot = async <T>(work: () => Promise<T>): Promise<T> => {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
};

const makeThumb = async (store: FileStore, key: string, type: string, spec: ThumbSpec): Promise<boolean> => {
  const source = await store.get(key);
  if (!source) return false;
  const { default: sharp } = await import("sharp");
  const format = type === "image/jpeg" ? "jpeg" : (type.slice("image/".length) as "png" | "webp" | "gif");
  const resize =
    spec.mode === "crop" ? { width: spec.width, height: spec.height, fit: "cover" as const }
    : spec.mode === "fit" ? { width: spec.width, height: spec.height, fit: "inside" as const }
    : { width: spec.width || undefined, height: spec.height || undefined };
  const transform = sharp({ limitInputPixels: 100_000_000, failOn: "error" }).rotate().resize(resize).toFormat(format);
  source.body.on("error", (error) => transform.destroy(error));
  source.body.pipe(transform);
  thumbCounters.generated++;
  await store.put(thumbKey(key, spec), transform, { contentType: type });
  return true;
};

/**
 * The key of the thumb of `key` at `spec`, made now unless the store has it; undefined when the file is not an
 * image sharp can read (the caller serves the file itself). Concurrent callers for one thumb share one making.
 */
export const ensureThumb = async (store: FileStore, key: string, type: string, size: number, spec: ThumbSpec): Promise<string | undefined> => {
  if (!THUMB_TYPES.has(type) || size > MAX_THUMB_SOURCE_BYTES) return undefined;
  const target = thumbKey(key, spec);
  if (await store.stat(target)) return target;
  let making = inFlight.get(target);
  if (!making) {
    making = withSlot(async () => (await store.stat(target)) !== null || makeThumb(store, key, type, spec))
      .catch(() => false)
      .finally(() => inFlight.delete(target));
    inFlight.set(target, making);
  }
  return (await making) ? target : undefined;
};
