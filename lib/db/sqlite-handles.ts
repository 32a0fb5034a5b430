// User databases on SQLite are opened on demand and closed when idle or when the cap is reached (least
// recently used first), so one process serves far more databases than it may hold files open. A connection
// in use (a statement, a transaction, a read on a reader thread, or one waiting its turn) is never closed:
// every use counts itself in with `retain` and out with `release`.
import path from "node:path";
import { unavailable } from "../errors";
import { SHORTAGE_RETRY_SECONDS } from "./unavailable";
import { openSqlite, type SqliteConn } from "./open-sqlite";
import type { UserDb } from "./user-db";

/** One statement or transaction at a time on a connection; the next waiter gets it directly. */
const createLock = () => {
  let held = false;
  const waiters: (() => void)[] = [];
  return {
    acquire: (): Promise<void> | void => {
      if (!held) {
        held = true;
        return;
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    /** Takes the lock only if it is free now. */
    tryAcquire: () => !held && (held = true),
    release: () => {
      const next = waiters.shift();
      if (next) next();
      else held = false;
    },
  };
};

export type OpenDb = {
  physical: string;
  conn: SqliteConn;
  /** Uses in progress, including those waiting for the lock. */
  refs: number;
  lastUsed: number;
  lock: ReturnType<typeof createLock>;
  /** The Kysely handle over this database, kept while it is open. */
  handle?: UserDb;
};

export type SqliteHandles = {
  /** Opens the database if needed (closing an idle one past the cap) and counts one use; 503 when none is idle. */
  retain: (physical: string) => OpenDb;
  release: (db: OpenDb) => void;
  /** The database if it is open, without counting a use. */
  peek: (physical: string) => OpenDb | undefined;
  open: () => IterableIterator<OpenDb>;
  /** Closes now, in use or not: the database is being dropped. */
  close: (physical: string) => void;
  /** Called after a database's connection is closed (the reader threads close theirs). */
  onClose: (listener: (physical: string) => void) => void;
  /** Closes the databases unused for the idle time (run on a timer; `now` for tests). */
  closeIdle: (now?: number) => void;
  closeAll: () => void;
  /** The WAL size at which a COMMIT on these connections checkpoints (a backstop where reader threads do it). */
  setAutocheckpoint: (pages: number) => void;
};

export const DEFAULT_IDLE_SECONDS = 60;

/** `cacheMb`: each connection's page cache (open-sqlite.ts's default when unset). */
export type HandleOptions = { dir: string; maxOpen: number; idleMs: number; cacheMb?: number };

export const createSqliteHandles = ({ dir, maxOpen, idleMs, cacheMb }: HandleOptions): SqliteHandles => {
  /** The automatic checkpoint of connections opened from now on (SQLite's default until set). */
  let autocheckpointPages: number | undefined;
  // Map order is recency: a use moves its database to the end, so the first idle entry is the one to close.
  const opened = new Map<string, OpenDb>();
  const listeners: ((physical: string) => void)[] = [];

  const closeDb = (db: OpenDb) => {
    if (opened.get(db.physical) !== db) return;
    opened.delete(db.physical);
    db.conn.close();
    for (const listener of listeners) listener(db.physical);
  };

  const makeRoom = () => {
    if (opened.size < maxOpen) return;
    for (const db of opened.values()) {
      if (db.refs === 0) return closeDb(db);
    }
    throw unavailable(`All ${maxOpen} databases this server keeps open are in use; retry in a moment.`, SHORTAGE_RETRY_SECONDS);
  };

  const closeIdle = (now = Date.now()) => {
    for (const db of [...opened.values()]) if (db.refs === 0 && db.lastUsed < now - idleMs) closeDb(db);
  };
  const sweep = setInterval(closeIdle, Math.max(1000, Math.floor(idleMs / 2)));
  sweep.unref();

  return {
    retain: (physical) => {
      let db = opened.get(physical);
      if (db) opened.delete(physical);
      else {
        makeRoom();
        db = { physical, conn: openSqlite(path.join(dir, physical), cacheMb, autocheckpointPages), refs: 0, lastUsed: 0, lock: createLock() };
      }
      opened.set(physical, db);
      db.refs++;
      return db;
    },
    release: (db) => {
      db.refs--;
      db.lastUsed = Date.now();
    },
    peek: (physical) => opened.get(physical),
    open: () => opened.values(),
    close: (physical) => {
      const db = opened.get(physical);
      if (db) closeDb(db);
    },
    onClose: (listener) => void listeners.push(listener),
    closeIdle,
    closeAll: () => {
      clearInterval(sweep);
      for (const db of [...opened.values()]) closeDb(db);
    },
    setAutocheckpoint: (pages) => {
      autocheckpointPages = pages;
      for (const db of opened.values()) db.conn.raw.pragma(`wal_autocheckpoint = ${pages}`);
    },
  };
};
