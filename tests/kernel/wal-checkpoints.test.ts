// SQLite WAL checkpoints after writes run on a reader thread, not inside the COMMIT on the main thread: the
// writes' pages reach the database file without the WAL growing to SQLite's automatic checkpoint, and the main
// connection checkpoints itself only as a backstop. The reader threads' connections, opened for writing because
// a checkpoint needs it, still refuse every change.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema } from "../../lib/meta/load-schema";
import { BACKSTOP_CHECKPOINT_PAGES, startReaderPool } from "../../lib/db/readers/reader-pool";
import { createSqliteHandles } from "../../lib/db/sqlite-handles";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";

/** The WAL's last committed frame and how many of its frames are copied into the file, from the WAL index header. */
const walProgress = (file: string) => {
  const shm = fs.readFileSync(`${file}-shm`);
  // The index header (48 bytes, twice) then the checkpoint information: mxFrame at 16, nBackfill at 96.
  return { frames: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) };
};

describe("WAL checkpoints on SQLite", () => {
  let h: Harness;
  let file = "";
  let db = "";

  beforeAll(async () => {
    h = await startHarness("sqlite", "node");
    db = await createDatabase(h, "checkpoints", [{ name: "items", columns: [{ name: "body", type: "text" }] }]);
    const schema = (await loadSchema(h.app, db))!;
    file = path.join(h.app.config.dataDir, "databases", schema.physical);
  });

  afterAll(async () => {
    await h?.close();
  });

  it("the writes' pages are copied into the database file soon after they commit, far below SQLite's automatic checkpoint", async () => {
    for (let i = 0; i < 40; i++) {
      const res = await h.request("POST", `/v1/${db}/items`, { body: { body: `row ${i} ${"x".repeat(2000)}` } });
      expect(res.status).toBe(201);
    }
    const progress = () => walProgress(file);
    // Frames count from the WAL's last restart (after a full checkpoint). Far below 1,000 pages, where a COMMIT
    // would have checkpointed on the main thread: a reader thread copies them.
    expect(progress().frames).toBeGreaterThan(0);
    expect(progress().frames).toBeLessThan(1000);
    const allCopied = () => {
      const now = progress();
      return now.copied === now.frames ? "all copied" : JSON.stringify(now);
    };
    await expect.poll(allCopied, { timeout: 3000, interval: 20 }).toBe("all copied");
    // The rows are all there, read through the API.
    const list = await h.request("GET", `/v1/${db}/items?_limit=100`);
    expect(list.status).toBe(200);
    expect((list.body as unknown[]).length).toBe(40);
  });

  it("the main connection's own automatic checkpoint is only the backstop, well above SQLite's 1,000 pages", async () => {
    const schema = (await loadSchema(h.app, db))!;
    const udb = h.app.engine.userDb(schema.physical);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(udb.db);
    expect(rows[0].wal_autocheckpoint).toBe(BACKSTOP_CHECKPOINT_PAGES);
    expect(BACKSTOP_CHECKPOINT_PAGES).toBeGreaterThan(1000);
  });
});

describe("reader threads' connections", () => {
  it("refuse every change, even though they may checkpoint", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-reader-writes-"));
    const handles = createSqliteHandles({ dir, maxOpen: 4, idleMs: 60_000 });
    const conn = handles.retain("t.sqlite");
    conn.conn.raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    handles.release(conn);
    const pool = startReaderPool({ size: 1, dir, handles, cacheMb: 2 })!;
    try {
      await expect(pool.read("t.sqlite", CompiledQuery.raw("INSERT INTO t (v) VALUES ('x')"))).rejects.toThrow(/reads only/);
      await expect(pool.read("t.sqlite", CompiledQuery.raw("PRAGMA query_only = OFF"))).rejects.toThrow(/reads only/);
      expect(await pool.read("t.sqlite", CompiledQuery.raw("SELECT count(*) AS n FROM t"))).toEqual([{ n: 0 }]);
    } finally {
      await pool.close();
      handles.closeAll();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
