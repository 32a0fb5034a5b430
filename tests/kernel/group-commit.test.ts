// SQLite group commit (lib/db/group-commit.ts): the write transactions of one event-loop turn share a COMMIT,
// each in its own savepoint. What a caller sees must not change: a failed member leaves nothing and the others
// keep their work; a success is answered after the COMMIT; a failed COMMIT fails every member and stores nothing;
// a member reads what the members before it wrote; a lone refusal frees the write lock at once.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inWriteTransaction } from "../../lib/api/write/transaction";
import { type Engine, openEngine, type UserDb } from "../../lib/db/engine";
import { MAX_BATCH } from "../../lib/db/group-commit";

describe("SQLite group commit", () => {
  let dir: string;
  let engine: Engine;
  let udb: UserDb;
  let other: Database.Database;
  const physical = "group.sqlite";

  const rows = () => other.prepare("SELECT name FROM items ORDER BY id").pluck().all() as string[];
  const insert = (name: string) => (tx: UserDb) => sql`INSERT INTO items (name) VALUES (${name})`.execute(tx.db);
  const stats = () => {
    const { commits, writes } = engine.poolStats() as { commits: number; writes: number };
    return { commits, writes };
  };
  /** Frames in the WAL since the last checkpoint: each COMMIT appends at least one. */
  const walFrames = () => (other.pragma("wal_checkpoint(PASSIVE)") as { log: number }[])[0].log;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-group-"));
    engine = await openEngine({ engine: "sqlite", dataDir: dir, bcryptCost: 4, sqliteReaders: 0 });
    await engine.createUserDb(physical);
    udb = engine.userDb(physical);
    await sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`.execute(udb.db);
    await sql`CREATE TABLE parents (id INTEGER PRIMARY KEY)`.execute(udb.db);
    await sql`CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`.execute(udb.db);
    other = new Database(path.join(dir, "databases", physical));
    other.pragma("busy_timeout = 0");
  });
  beforeEach(() => void other.exec("DELETE FROM items; DELETE FROM children"));
  afterAll(async () => {
    other?.close();
    await engine?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("commits the transactions begun in one turn together, each answered only once it is stored", async () => {
    other.pragma("wal_checkpoint(TRUNCATE)");
    const before = stats();
    const seenAtAnswer: number[] = [];
    const names = Array.from({ length: 40 }, (_, i) => `together ${i}`);
    await Promise.all(names.map((name) => inWriteTransaction(udb, insert(name)).then(() => seenAtAnswer.push(rows().filter((n) => n.startsWith("together")).length))));
    expect(rows()).toEqual(names);
    // Every answer came after the COMMIT: another connection already saw all 40 rows.
    expect(seenAtAnswer).toEqual(Array(40).fill(40));
    // One COMMIT (a few pages), not 40.
    expect(walFrames()).toBeLessThan(10);
    expect(stats()).toEqual({ commits: before.commits + 1, writes: before.writes + 40 });
  });

  it("a member that fails is rolled back alone; the members before and after it are stored", async () => {
    const outcomes = await Promise.allSettled([
      inWriteTransaction(udb, insert("first")),
      inWriteTransaction(udb, async (tx) => {
        await insert("refused, half done")(tx);
        await insert("first")(tx); // UNIQUE: this member fails after one statement
      }),
      inWriteTransaction(udb, async (tx) => {
        await insert("refused by the caller")(tx);
        throw new Error("422");
      }),
      inWriteTransaction(udb, insert("last")),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(rows()).toEqual(["first", "last"]);
  });

  it("runs members one after another: a later one reads what an earlier one wrote", async () => {
    const read = (tx: UserDb) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM items`.execute(tx.db).then((r) => Number(r.rows[0].n));
    const counts = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        inWriteTransaction(udb, async (tx) => {
          const before = await read(tx);
          await new Promise((resolve) => setTimeout(resolve, i % 2 ? 5 : 0)); // a member that waits does not let the next one in
          await insert(`serial ${i}`)(tx);
          return before;
        }),
      ),
    );
    expect(counts).toEqual([0, 1, 2, 3, 4]);
  });

  it("a COMMIT that fails fails every member of the batch and stores none of them", async () => {
    const outcomes = await Promise.allSettled([
      inWriteTransaction(udb, insert("innocent")),
      // A deferred foreign key is checked at COMMIT: the statement succeeds, the batch's COMMIT does not.
      inWriteTransaction(udb, (tx) => sql`INSERT INTO children (parent) VALUES (${999})`.execute(tx.db)),
      inWriteTransaction(udb, insert("innocent too")),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(rows()).toEqual([]);
    expect(other.prepare("SELECT COUNT(*) FROM children").pluck().get()).toBe(0);
    // The connection is usable again.
    await inWriteTransaction(udb, insert("after"));
    expect(rows()).toEqual(["after"]);
  });

  it("a lone refusal frees the write lock before its caller hears of it", async () => {
    await expect(inWriteTransaction(udb, async (tx) => {
      await insert("refused")(tx);
      throw new Error("refused");
    })).rejects.toThrow("refused");
    // busy_timeout 0: BEGIN IMMEDIATE fails at once if the write lock were still held.
    other.prepare("BEGIN IMMEDIATE").run();
    other.prepare("ROLLBACK").run();
    expect(rows()).toEqual([]);
  });

  it(`takes at most ${MAX_BATCH} members per COMMIT; the rest wait for the next one`, async () => {
    other.pragma("wal_checkpoint(TRUNCATE)");
    const n = MAX_BATCH + 20;
    await Promise.all(Array.from({ length: n }, (_, i) => inWriteTransaction(udb, insert(`many ${i}`))));
    expect(rows()).toHaveLength(n);
    const frames = walFrames();
    expect(frames).toBeGreaterThan(1); // two COMMITs
    expect(frames).toBeLessThan(20);
  });
});
