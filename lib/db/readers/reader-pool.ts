// Reads that may scan (list and join pages, counts) run on a few reader threads with their own connections,
// which refuse changes (WAL lets them read while the main connection writes), so a slow scan never stalls the event
// loop and the requests behind it. The main thread sends compiled SQL and parameters and gets the rows back.
// Each thread holds at most IN_FLIGHT reads (the one it runs and the next, so it never waits for the main
// thread between two); the rest wait in one shared line, taken in arrival order by whichever thread frees
// first, so a thread the OS pauses holds up two reads, not its share of the whole queue.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type { CompiledQuery } from "kysely";
import type { OutputColumns, PageJson } from "../page-json.mjs";
import type { OpenDb, SqliteHandles } from "../sqlite-handles";

type Row = Record<string, unknown>;
type Pending = { resolve: (value: Row[] | PageJson) => void; reject: (err: Error) => void; db: OpenDb };
type Queued = Pending & { id: number; physical: string; message: Record<string, unknown> };
type Reader = { worker: Worker; pending: Map<number, Pending>; files: Set<string> };
type Answer = { id: number; rows?: Row[]; blobs?: boolean; page?: PageJson; error?: { name?: string; message: string; code?: string } };
type Reply = Answer | { checkpointed: string };

export type ReaderPool = {
  read: (physical: string, query: CompiledQuery) => Promise<Row[]>;
  /** A list page shaped into its JSON text on the reader (page-json.mjs): only the text comes back. */
  page: (physical: string, query: CompiledQuery, output: OutputColumns, limit: number) => Promise<PageJson>;
  /**
   * A write committed to this database: the first reader thread copies its WAL into the file (a PASSIVE
   * checkpoint), unless it was already asked to; see "Checkpoints" in docs/api.md.
   */
  checkpoint: (physical: string) => void;
  /** Drops cached statements after DDL: of one database, or of all. */
  clear: (physical?: string) => void;
  close: () => Promise<void>;
};

export const DEFAULT_READERS = 3;
/** Checkpoints of one database start at least this far apart. */
const CHECKPOINT_GAP_MS = 25;
/** Where reader threads copy the WAL, the writing connection's own automatic checkpoint is a backstop at this size (SQLite's default is 1,000 pages). */
export const BACKSTOP_CHECKPOINT_PAGES = 4_000;
/** Reads sent to one thread before it answers: the one it runs and the next. */
const IN_FLIGHT = 2;
const WORKER_FILE = "reader-worker.mjs";

/**
 * The worker script: beside this module when it runs from source (tsx, vitest, the production server);
 * inside a Next bundle this module's URL points into .next, so there it is found from the project folder.
 */
const findWorkerScript = (): string | undefined => {
  const here = (() => {
    try {
      return path.dirname(fileURLToPath(import.meta.url));
    } catch {
      return undefined;
    }
  })();
  const candidates = [here && path.join(here, WORKER_FILE), path.resolve("lib", "db", "readers", WORKER_FILE)];
  return candidates.find((file): file is string => !!file && fs.existsSync(file));
};

/** Errors come back as plain data; SQLite's keep their class and code, as if thrown on this thread. */
const toError = ({ name, message, code }: NonNullable<Answer["error"]>): Error =>
  name === "SqliteError" && code ? new Database.SqliteError(message, code) : Object.assign(new Error(message), code ? { code } : {});

const asBuffers = (rows: Row[]) => {
  for (const row of rows) {
    for (const key in row) {
      const v = row[key];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return rows;
};

type PoolOptions = { size: number; dir: string; handles: SqliteHandles; cacheMb: number };

let warnedNoScript = false;

/** The reader threads, or none (size 0, or no worker script to start: then reads stay on the main thread). */
export const startReaderPool = (options: PoolOptions): ReaderPool | undefined => {
  if (options.size <= 0) return undefined;
  const script = findWorkerScript();
  if (script) return createReaderPool({ ...options, script });
  if (!warnedNoScript) console.warn(`[tabula] ${WORKER_FILE} not found; SQLite reads run on the main thread.`);
  warnedNoScript = true;
  return undefined;
};

const createReaderPool = ({ size, dir, handles, cacheMb, script }: PoolOptions & { script: string }): ReaderPool => {
  const readers: (Reader | undefined)[] = Array.from({ length: size }, () => undefined);
  let nextId = 1;
  let closing = false;

  /** Reads no thread has room for yet, oldest first. */
  const waiting: Queued[] = [];
  /** Databases with a checkpoint asked for and not yet done → whether a write committed since it was asked. */
  const checkpointing = new Map<string, boolean>();

  const fail = (reader: Reader, err: Error) => {
    for (const [id, p] of reader.pending) {
      reader.pending.delete(id);
      handles.release(p.db);
      p.reject(err);
    }
  };

  const post = (reader: Reader, physical: string, message: Record<string, unknown>) =>
    reader.worker.postMessage({ ...message, file: path.join(dir, physical) });

  const send = (reader: Reader, { id, physical, message, ...pending }: Queued) => {
    reader.files.add(physical);
    if (reader.pending.size === 0) reader.worker.ref();
    reader.pending.set(id, pending);
    post(reader, physical, { ...message, id });
  };

  const spawn = (slot: number): Reader => {
    const worker = new Worker(script, { workerData: { cacheMb } });
    // Idle readers must not keep the process alive; one with work in hand does (ref while pending).
    worker.unref();
    const reader: Reader = { worker, pending: new Map(), files: new Set() };
    worker.on("message", (reply: Reply) => {
      if ("checkpointed" in reply) return checkpointDone(reply.checkpointed);
      const p = reader.pending.get(reply.id);
      if (!p) return;
      reader.pending.delete(reply.id);
      const next = waiting.shift();
      if (next) send(reader, next);
      else if (reader.pending.size === 0) worker.unref();
      handles.release(p.db);
      if (reply.error) p.reject(toError(reply.error));
      else p.resolve(reply.page ?? (reply.blobs ? asBuffers(reply.rows!) : reply.rows!));
    });
    const gone = (err: Error) => {
      if (readers[slot] === reader) readers[slot] = undefined;
      if (slot === 0) checkpointing.clear();
      fail(reader, err);
      // The waiting line goes to the threads left, a new one started in this slot if need be.
      for (let free = room(); free && waiting.length; free = room()) send(free, waiting.shift()!);
    };
    worker.on("error", gone);
    worker.on("exit", (code) => gone(new Error(`A reader thread stopped (exit code ${code}).`)));
    readers[slot] = reader;
    return reader;
  };

  const askCheckpoint = (physical: string) => {
    const reader = readers[0] ?? spawn(0);
    checkpointing.set(physical, false);
    reader.files.add(physical);
    post(reader, physical, { type: "checkpoint", physical, gapMs: CHECKPOINT_GAP_MS });
  };

  /** A checkpoint ended: another follows when a write committed while it ran, so no write is left in the WAL. */
  const checkpointDone = (physical: string) => {
    if (checkpointing.get(physical) && !closing) askCheckpoint(physical);
    else checkpointing.delete(physical);
  };

  /** The reader with the least work in hand if it has room for another read (started on first use). */
  const room = (): Reader | undefined => {
    if (closing) return undefined;
    let best: Reader | undefined;
    for (let slot = 0; slot < readers.length; slot++) {
      const reader = readers[slot] ?? spawn(slot);
      if (reader.pending.size === 0) return reader;
      if (!best || reader.pending.size < best.pending.size) best = reader;
    }
    return best!.pending.size < IN_FLIGHT ? best : undefined;
  };

  /** Sends a request to the least busy reader, or queues it until one has room; settles with its answer. */
  const ask = async <T>(physical: string, message: Record<string, unknown>): Promise<T> => {
    if (closing) throw new Error("The reader threads are closed.");
    const db = handles.retain(physical);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const read: Queued = { id, physical, message, resolve: resolve as Pending["resolve"], reject, db };
      const reader = waiting.length === 0 ? room() : undefined;
      if (reader) send(reader, read);
      else waiting.push(read);
    });
  };

  // A database closed on the main thread (idle, past the cap, dropped) is closed on every reader too.
  handles.onClose((physical) => {
    checkpointing.delete(physical); // a checkpoint ending after this asks for no other
    for (const reader of readers) if (reader?.files.delete(physical)) post(reader, physical, { type: "close", physical });
  });

  return {
    read: (physical, query) => ask<Row[]>(physical, { type: "read", sql: query.sql, params: query.parameters }),
    page: (physical, query, output, limit) => ask<PageJson>(physical, { type: "page", sql: query.sql, params: query.parameters, output, limit }),
    checkpoint: (physical) => {
      if (closing) return;
      if (checkpointing.has(physical)) checkpointing.set(physical, true);
      else askCheckpoint(physical);
    },
    clear: (physical) => {
      for (const reader of readers) {
        if (!reader) continue;
        if (physical === undefined) reader.worker.postMessage({ type: "clear" });
        else if (reader.files.has(physical)) post(reader, physical, { type: "clear" });
      }
    },
    close: async () => {
      closing = true;
      for (const read of waiting.splice(0)) {
        handles.release(read.db);
        read.reject(new Error("The reader threads are closed."));
      }
      await Promise.all(readers.map((reader) => reader?.worker.terminate()));
    },
  };
};
