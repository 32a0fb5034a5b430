// One consistent point in time of a user database, read on a connection of its own: SQLite through one read
// transaction (WAL keeps its snapshot while writers go on), MariaDB through START TRANSACTION WITH CONSISTENT
// SNAPSHOT. Rows come in id order, a batch at a time, so a large table never sits in memory.
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { createConnection } from "mysql2/promise";
import type { App } from "../app-type";
import { mysqlConnectionOptions } from "../db/engine";
import { EVENTS_TABLE, QUEUE_TABLE, SEQ_TABLE } from "../events/outbox/outbox-table";

export const BATCH_ROWS = 2_000;
/** SQLite reads block the event loop while they run: smaller batches keep each read to a few milliseconds. */
const SQLITE_BATCH_ROWS = 250;

export type Snapshot = {
  /** The last change event at the snapshot's point in time (0: none yet). */
  eventId: number;
  /** The rows of one table with these columns, in id order, `BATCH_ROWS` at a time. */
  batches: (table: string, columns: string[]) => AsyncGenerator<Record<string, unknown>[]>;
  close: () => Promise<void>;
};

const quoteSqlite = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteMysql = (name: string) => `\`${name.replace(/`/g, "``")}\``;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** SQLite integers are read exactly (BigInt) and kept as numbers while a number holds them; a bigint past 2^53 stays a BigInt. */
const exactIntegers = (rows: Record<string, unknown>[]) => {
  for (const row of rows) {
    for (const key in row) {
      const v = row[key];
      if (typeof v === "bigint" && v >= MIN_SAFE && v <= MAX_SAFE) row[key] = Number(v);
    }
  }
  return rows;
};
const openSqliteSnapshot = (app: App, physical: string): Snapshot => {
  const conn = new Database(path.join(app.config.dataDir, "databases", physical), { readonly: true, fileMustExist: true });
  conn.pragma("busy_timeout = 5000");
  conn.exec("BEGIN");
  // The first read fixes the transaction's snapshot; every later read sees the database as it was here.
  const hasEvents = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(EVENTS_TABLE);
  const eventId = hasEvents ? Number((conn.prepare(`SELECT COALESCE(MAX(id), 0) AS id FROM ${quoteSqlite(EVENTS_TABLE)}`).get() as { id: number }).id) : 0;
  return {
    eventId,
    batches: async function* (table, columns) {
      const stmt = conn.prepare(`SELECT ${columns.map(quoteSqlite).join(", ")} FROM ${quoteSqlite(table)} WHERE "id" > ? ORDER BY "id" LIMIT ${SQLITE_BATCH_ROWS}`).safeIntegers(true);
      let after = 0;
      for (;;) {
        const rows = exactIntegers(stmt.all(after) as Record<string, unknown>[]);
        if (rows.length === 0) return;
        after = Number(rows[rows.length - 1].id);
        yield rows;
        if (rows.length < SQLITE_BATCH_ROWS) return;
      }
    },
    close: async () => {
      if (conn.inTransaction) conn.exec("COMMIT");
      conn.close();
    },
  };
};

/**
 * MariaDB gives event ids after commit (lib/events/outbox/sequence-events.ts), so the snapshot's event id is
 * fixed while a second connection holds the event queue read-locked (LOCK TABLES … READ waits for the transactions that wrote to it): every write that queued events has committed,
 * none can queue more, and the queued ones are the next ids the sequencer gives (it takes the queue in order).
 * The lock lasts only as long as opening the snapshot takes.
 */
const openMysqlSnapshot = async (app: App, physical: string, signal?: AbortSignal): Promise<Snapshot> => {
  const options = mysqlConnectionOptions(app.config.databaseUrl!, physical);
  const conn = await createConnection(options);
  const locker = await createConnection(options);
  // Stopped, both connections end on the server at once: a query waiting on a lock (a DROP DATABASE queued
  // behind this snapshot's reads) fails instead of holding its locks until the statement would have ended.
  const kill = () => {
    for (const c of [conn, locker]) {
      void sql.raw(`KILL CONNECTION ${Number(c.threadId)}`).execute(app.engine.meta).catch(() => undefined);
    }
  };
  signal?.addEventListener("abort", kill, { once: true });
  try {
    signal?.throwIfAborted();
    const [exists] = (await conn.query("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? AND table_name IN (?, ?, ?)", [physical, EVENTS_TABLE, SEQ_TABLE, QUEUE_TABLE])) as unknown as [{ t: string }[]];
    const outbox = exists.length === 3;
    await conn.query("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    if (outbox) {
      await locker.query("SET SESSION lock_wait_timeout = 30");
      await locker.query(`LOCK TABLES ${quoteMysql(QUEUE_TABLE)} READ`);
    }
    let eventId = 0;
    try {
      await conn.query("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
      if (outbox) {
        const [rows] = (await conn.query(
          `SELECT (SELECT last_id FROM ${quoteMysql(SEQ_TABLE)} WHERE id = 1) AS last_id, (SELECT COUNT(*) FROM ${quoteMysql(QUEUE_TABLE)}) AS queued`,
        )) as unknown as [{ last_id: number | string | null; queued: number | string }[]];
        eventId = Number(rows[0].last_id ?? 0) + Number(rows[0].queued);
      }
    } finally {
      if (outbox) await locker.query("UNLOCK TABLES");
      await locker.end().catch(() => locker.destroy());
    }
    return {
      eventId,
      batches: async function* (table, columns) {
        const text = `SELECT ${columns.map(quoteMysql).join(", ")} FROM ${quoteMysql(table)} WHERE \`id\` > ? ORDER BY \`id\` LIMIT ${BATCH_ROWS}`;
        let after: number | string = 0;
        for (;;) {
          const [rows] = (await conn.query(text, [after])) as unknown as [Record<string, unknown>[]];
          if (rows.length === 0) return;
          after = rows[rows.length - 1].id as number;
          yield rows;
          if (rows.length < BATCH_ROWS) return;
        }
      },
      close: async () => {
        signal?.removeEventListener("abort", kill);
        await conn.query("COMMIT").catch(() => undefined);
        await conn.end().catch(() => conn.destroy());
      },
    };
  } catch (err) {
    signal?.removeEventListener("abort", kill);
    conn.destroy();
    locker.destroy();
    throw err;
  }
};

/** `signal` stops the snapshot: on MariaDB its connections are ended on the server, so its locks go at once. */
export const openSnapshot = (app: App, physical: string, signal?: AbortSignal): Promise<Snapshot> =>
  app.engine.kind === "mysql" ? openMysqlSnapshot(app, physical, signal) : Promise.resolve(openSqliteSnapshot(app, physical));
