// Which store keys a driver accepts. Callers build keys from ids and sanitised names; this is the second wall,
// so a key can never step out of the store's folder or name a driver's temporary file.
import { ApiError } from "../errors";

/** The prefix of the local driver's temporary files; no key segment may start with it. */
export const TEMP_PREFIX = ".~put-";

const problemOf = (key: string): string | undefined => {
  if (typeof key !== "string" || key.length === 0) return "is empty";
  if (Buffer.byteLength(key) > 1024) return "is longer than 1024 bytes";
  if (key.includes("\0")) return "contains NUL";
  if (key.includes("\\")) return "contains a backslash";
  if (key.startsWith("/")) return "starts with /";
  if (key.includes("..")) return "contains ..";
  for (const segment of key.split("/")) {
    if (segment === "" || segment === ".") return "has an empty or . segment";
    if (segment.startsWith(TEMP_PREFIX)) return `has a segment starting with ${TEMP_PREFIX}`;
  }
  return undefined;
};

/** Throws a 400 unless `key` is a key a driver may store under. */
export const checkKey = (key: string): string => {
  const problem = problemOf(key);
  if (problem) throw new ApiError("bad_request", `The file key ${JSON.stringify(String(key)).slice(0, 80)} ${problem}.`);
  return key;
};

/** A list prefix: like a key, but it may be empty or end with "/". */
export const checkPrefix = (prefix: string): string => {
  if (prefix === "") return prefix;
  checkKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
  return prefix;
};
