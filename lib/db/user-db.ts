// A user database's handle, apart from the engine that opens it (lib/db/engine.ts): the engine's helpers (group
// commit, the SQLite handles) take and make handles, and the engine imports them.
import type { CompiledQuery, Kysely, QueryResult, RawBuilder } from "kysely";
import type { EngineKind } from "../config";
import type { OutputColumns, PageJson } from "./page-json.mjs";

/** A user database: its Kysely handle and how to name one of its tables in SQL. */
export type UserDb = {
  engine: EngineKind;
  db: Kysely<any>;
  table: (name: string) => RawBuilder<unknown>;
  /** The database's physical name (names its change events' wake-ups, lib/events/outbox). */
  physical?: string;
  /**
   * Runs a read that may scan off the event loop (SQLite reader threads); absent on MySQL, inside a write
   * transaction (which reads its own writes on its connection), or with SQLITE_READERS=0. Use scanRows.
   */
  scan?: (query: CompiledQuery) => Promise<Record<string, unknown>[]>;
  /**
   * Reads a list page (`limit` + 1 rows) and shapes it into its JSON text where it reads (a reader thread, or
   * this thread's connection), so no row object crosses or lingers here (page-json.mjs). SQLite only, and not
   * inside a write transaction. Use readPage (lib/api/read-page.ts).
   */
  scanPage?: (query: CompiledQuery, output: OutputColumns, limit: number) => Promise<PageJson>;
  /**
   * Runs a short read (by primary key) at once on the database's connection, without Kysely's connection
   * round trip; undefined when the connection is busy (a write transaction holds it; inside that transaction
   * it reads on the held connection, its own writes included). SQLite only. Use readRows.
   */
  readNow?: (query: CompiledQuery) => Record<string, unknown>[] | undefined;
  /** `INSERT … RETURNING` gives the stored row in the same statement (SQLite, MariaDB ≥ 10.5; not MySQL). */
  returning: boolean;
  /** MySQL: the server's max_allowed_packet, read once; a statement's values must stay under it (event batches). */
  maxPacketBytes?: number;
  /** MySQL: where the write kernel's transactions run (implicitBeginKysely); used for nothing else. */
  writer?: Kysely<any>;
  /** SQLite: runs `fn` as one write transaction, committed together with those of the same event-loop turn (group-commit.ts). */
  groupCommit?: <T>(fn: (tx: UserDb) => Promise<T>) => Promise<T>;
  /** Inside a write transaction: runs `fn` once it has committed (never if it rolls back). */
  afterCommit?: (fn: () => void) => void;
  /** Inside a SQLite write transaction: runs a statement at once on its connection, without Kysely's executor. Use runStatement. */
  runNow?: (query: CompiledQuery) => QueryResult<any>;
};
