// SQLite group commit. Most of a small write's cost is its COMMIT: every page it dirtied (the row's leaf, the
// change event's leaf, the sequence rows) is appended to the WAL as a whole frame. Write transactions that
// begin in the same event-loop turn therefore share one BEGIN IMMEDIATE … COMMIT, each member in its own
// SAVEPOINT, and the batch commits in the turn's check phase (setImmediate), once no member is running.
//
// What each caller sees is unchanged: a member that fails is rolled back to its savepoint (the others keep
// their work) and throws at once; a member that succeeds is answered only after the COMMIT that makes it
// durable, and if that COMMIT fails, every member of the batch gets the error and nothing of theirs is stored.
// Members run one after another (a later one reads what an earlier one wrote, as if committed just before it),
// so the batch is the same as running them one by one, in order. Readers on other connections (reader threads,
// other processes) see a batch all at once or not at all.
import type { OpenDb, SqliteHandles } from "./sqlite-handles";
import type { UserDb } from "./user-db";

/** Members per batch at most: bounds how long the first member's answer waits for the COMMIT. */
export const MAX_BATCH = 100;

type Ack = { resolve: () => void; reject: (err: unknown) => void };

type Batch = {
  db: OpenDb;
  tx: UserDb;
  /** Members that joined and have not finished (running, or waiting for their turn). */
  running: number;
  /** Members that joined in all: the batch takes no more once MAX_BATCH have. */
  joined: number;
  /** Members that succeeded, waiting for the COMMIT. */
  acks: Ack[];
  /** Callbacks to run after the COMMIT (change-event wake-ups). */
  afterCommit: (() => void)[];
  /** Set when the engine rolled the whole transaction back under a member (an I/O error, a full disk). */
  aborted?: unknown;
  /** One member at a time: savepoints nest, so members must not interleave. */
  turn: Promise<void>;
  commitQueued: boolean;
  /** Takes no more members (full, or ending). */
  closed: boolean;
  ended: boolean;
};

/**
 * One group committer per engine. `txFor(db)` makes the handle a member writes through: it must run every
 * statement on `db`'s connection without taking its lock (the batch holds it).
 */
export const createGroupCommit = (
  handles: SqliteHandles,
  txFor: (db: OpenDb, batch: { afterCommit: (fn: () => void) => void }) => UserDb,
  /** Called after each COMMIT that stored writes (the checkpoint thread's cue). */
  committed?: (physical: string) => void,
) => {
  /** Per database: the batch taking members, or the promise of one being opened (its lock awaited). */
  const accepting = new Map<string, Batch | Promise<Batch>>();
  /** Since start: COMMITs that stored at least one write, and the writes they stored (metrics). */
  const stats = { commits: 0, writes: 0 };

  const run = (db: OpenDb, text: string) => db.conn.prepare(text).run();

  const open = async (physical: string): Promise<Batch> => {
    const db = handles.retain(physical);
    await db.lock.acquire();
    try {
      run(db, "BEGIN IMMEDIATE");
    } catch (err) {
      db.lock.release();
      handles.release(db);
      throw err;
    }
    const batch: Batch = { db, tx: undefined as never, running: 0, joined: 0, acks: [], afterCommit: [], turn: Promise.resolve(), commitQueued: false, closed: false, ended: false };
    batch.tx = txFor(db, { afterCommit: (fn) => void batch.afterCommit.push(fn) });
    return batch;
  };

  /** Counts a member in; done before `join` returns, so the batch cannot end under a member about to run. */
  const enter = (batch: Batch) => {
    batch.running++;
    if (++batch.joined >= MAX_BATCH) batch.closed = true;
    return batch;
  };

  /** The open batch of `physical`, or a new one (which may first wait for the lock: a reader, the previous batch). */
  const join = async (physical: string): Promise<Batch> => {
    const found = accepting.get(physical);
    if (found) {
      const batch = await found;
      if (!batch.closed) return enter(batch);
      // Full or ending: the next batch (another caller may have started opening it meanwhile).
      const next = accepting.get(physical);
      if (next && next !== found) return join(physical);
    }
    const opening = open(physical);
    accepting.set(physical, opening);
    try {
      const batch = await opening;
      if (accepting.get(physical) === opening) accepting.set(physical, batch);
      return enter(batch);
    } catch (err) {
      if (accepting.get(physical) === opening) accepting.delete(physical);
      throw err;
    }
  };

  /** Ends the batch: COMMIT (or ROLLBACK, when the engine aborted it), then answers the waiting members. */
  const end = (batch: Batch) => {
    if (batch.ended) return;
    batch.ended = batch.closed = true;
    if (accepting.get(batch.db.physical) === batch) accepting.delete(batch.db.physical);
    const { db, acks } = batch;
    let failure = batch.aborted;
    if (failure === undefined) {
      try {
        run(db, "COMMIT");
      } catch (err) {
        failure = err;
      }
    }
    if (failure !== undefined && db.conn.raw.inTransaction) {
      try {
        run(db, "ROLLBACK");
      } catch {
        // the connection is unusable; the next BEGIN reports it
      }
    }
    db.lock.release();
    handles.release(db);
    if (failure !== undefined) for (const ack of acks) ack.reject(failure);
    else {
      if (acks.length) {
        stats.commits++;
        stats.writes += acks.length;
        committed?.(db.physical);
      }
      for (const ack of acks) ack.resolve();
      for (const fn of batch.afterCommit) fn();
    }
  };

  /** Commits in the check phase, after every member that joined in this turn has run. */
  const queueEnd = (batch: Batch) => {
    if (batch.commitQueued) return;
    batch.commitQueued = true;
    setImmediate(() => {
      batch.commitQueued = false;
      if (batch.running === 0) end(batch);
      // else the last running member ends it
    });
  };

  const write = async <T>(physical: string, fn: (tx: UserDb) => Promise<T>): Promise<T> => {
    const batch = await join(physical);
    const previous = batch.turn;
    let done!: () => void;
    batch.turn = new Promise<void>((resolve) => (done = resolve));
    await previous;

    const { db } = batch;
    let result: T;
    let failed: { err: unknown } | undefined;
    if (batch.aborted !== undefined) failed = { err: batch.aborted };
    else {
      run(db, "SAVEPOINT member");
      try {
        result = await fn(batch.tx);
        run(db, "RELEASE member");
      } catch (err) {
        failed = { err };
        if (db.conn.raw.inTransaction) {
          run(db, "ROLLBACK TO member");
          run(db, "RELEASE member");
        } else batch.aborted = err; // the engine rolled everything back: the members before this one are lost too
      }
    }
    batch.running--;
    done();

    const last = batch.running === 0;
    if (failed) {
      // A lone refusal does not hold the write lock until the check phase.
      if (last && (batch.acks.length === 0 || batch.aborted !== undefined)) end(batch);
      else if (last) queueEnd(batch);
      throw failed.err;
    }
    const committed = new Promise<void>((resolve, reject) => batch.acks.push({ resolve, reject }));
    if (last) queueEnd(batch);
    await committed;
    return result!;
  };
  return { write, stats };
};
