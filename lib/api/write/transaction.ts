// One write transaction, run again whole when the engine reports a serialization failure (a deadlock, a lock
// wait that timed out, a Galera certification conflict); when the attempts run out, 409 write_conflict.
import type { UserDb } from "../../db/engine";
import { withSerializationRetry } from "../../db/serialization-retry";

/**
 * Runs `fn` in one transaction, always: the statement and its read-back must agree, so a read-back that meets
 * a schema changed under it (or any refusal) rolls the statement back. SQLite takes the write lock at BEGIN
 * (IMMEDIATE): writers queue there, so a row read inside is already as good as locked; the transactions of one
 * event-loop turn share a COMMIT, each in its own savepoint (lib/db/group-commit.ts).
 */
export const inWriteTransaction = async <T>(udb: UserDb, fn: (tx: UserDb) => Promise<T>): Promise<T> => {
  if (udb.engine !== "mysql") return udb.groupCommit!(fn);
  const committed: (() => void)[] = [];
  const afterCommit = (run: () => void) => void committed.push(run);
  const result = await (udb.writer ?? udb.db).transaction().execute((trx) => fn({ ...udb, db: trx, scan: undefined, writer: undefined, afterCommit }));
  for (const run of committed) run();
  return result;
};

/** Attempts in all and the mean first back-off; a lost race is re-run from BEGIN, reading the rows afresh. */
const WRITE_RETRY = { attempts: 5, baseDelayMs: 5 };

/** `fn` as one transaction, re-run whole after a serialization failure; nothing of a failed attempt was committed. */
export const retriedWriteTransaction = <T>(udb: UserDb, fn: (tx: UserDb) => Promise<T>): Promise<T> =>
  withSerializationRetry(() => inWriteTransaction(udb, fn), WRITE_RETRY);
