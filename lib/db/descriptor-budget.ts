import fs from "node:fs";

/** The process's soft limit on open files (Linux), or undefined when unknown or unlimited. */
export const openFileLimit = (): number | undefined => {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
};

const MAX_OPEN_CEILING = 200;

/**
 * How many SQLite user databases to keep open: half the descriptor limit (the rest is for sockets and the
 * metadata), at 3 files for a database's main connection (file, WAL, shared memory) plus 2 per reader
 * thread, at most 200.
 */
export const defaultMaxOpen = (readers: number) => {
  const limit = openFileLimit();
  if (!limit) return MAX_OPEN_CEILING;
  return Math.max(4, Math.min(MAX_OPEN_CEILING, Math.floor(limit / 2 / (3 + 2 * readers))));
};
