// The reader threads' line (lib/db/readers/reader-pool.ts): a thread holds at most two reads, and the rest wait in
// one shared line for whichever thread frees first, so a slow read holds up one read behind it, not half the queue.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReaderPool, startReaderPool } from "../../lib/db/readers/reader-pool";
import { createSqliteHandles, type SqliteHandles } from "../../lib/db/sqlite-handles";

const FILE = "line.sqlite";
/** A read that counts to a few million: long enough that everything sent after it is waiting when it ends. */
const SLOW = CompiledQuery.raw("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4000000) SELECT count(*) AS n FROM c");
const fast = (i: number) => CompiledQuery.raw(`SELECT ${i} AS n`);

describe("reader threads: one shared line", () => {
  let dir = "";
  let handles: SqliteHandles;
  let pool: ReaderPool | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-reader-line-"));
    const db = new Database(path.join(dir, FILE));
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    db.close();
    handles = createSqliteHandles({ dir, maxOpen: 4, idleMs: 60_000 });
  });

  afterAll(async () => {
    await pool?.close();
    handles.closeAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a slow read keeps at most one read waiting behind it; the others go to the free thread", async () => {
    pool = startReaderPool({ size: 2, dir, handles, cacheMb: 2 });
    expect(pool).toBeDefined();
    // Both threads started and warm, so the slow read's length is the only difference between them.
    await Promise.all([pool!.read(FILE, fast(-1)), pool!.read(FILE, fast(-2))]);
    const done: string[] = [];
    const slow = pool!.read(FILE, SLOW).then((rows) => (done.push("slow"), rows));
    const quick = Array.from({ length: 20 }, (_, i) => pool!.read(FILE, fast(i)).then((rows) => (done.push(`fast ${i}`), rows)));
    const rows = await Promise.all(quick);
    expect(rows.map((r) => r[0].n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect((await slow)[0].n).toBe(4_000_000);
    const afterSlow = done.slice(done.indexOf("slow") + 1);
    // The thread running the slow read holds one more read; every other read went to the free thread.
    expect(afterSlow.length, `finished after the slow read: ${afterSlow.join(", ")}`).toBeLessThanOrEqual(1);
  });

  it("closing the pool settles every read, those still in the line with a clear error", async () => {
    const closing = startReaderPool({ size: 1, dir, handles, cacheMb: 2 })!;
    const sent = [closing.read(FILE, SLOW), closing.read(FILE, fast(1)), closing.read(FILE, fast(2)), closing.read(FILE, fast(3))];
    const settled = Promise.allSettled(sent);
    await closing.close();
    const outcomes = await settled;
    // One thread holds two reads; the other two were in the line.
    expect(outcomes.filter((o) => o.status === "rejected" && /reader threads are closed/.test(String(o.reason)))).toHaveLength(2);
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
    // Nothing is left retained: the database's handle counts no use.
    expect(handles.peek(FILE)?.refs).toBe(0);
  });
});
