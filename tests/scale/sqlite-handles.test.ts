// The LRU of open SQLite user databases (lib/db/sqlite-handles.ts) with the Kysely handles over it: a cap,
// idle close, and never closing a database in use, including one inside a transaction.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { createSqliteHandles, type SqliteHandles } from "../../lib/db/sqlite-handles";
import { leasedKysely } from "../../lib/db/user-db-dialect";
import { createApp } from "../../lib/app";

let dir: string;
let handles: SqliteHandles;
const openNames = () => [...handles.open()].map((db) => db.physical);
const closed: string[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-handles-"));
  handles = createSqliteHandles({ dir, maxOpen: 2, idleMs: 60_000 });
  closed.length = 0;
  handles.onClose((physical) => closed.push(physical));
});

afterEach(() => {
  handles.closeAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

const write = (physical: string, n: number) => sql`INSERT INTO t (n) VALUES (${n})`.execute(leasedKysely(handles, physical));
const count = async (physical: string) => Number((await sql<{ c: number }>`SELECT count(*) AS c FROM t`.execute(leasedKysely(handles, physical))).rows[0].c);

const createTable = (physical: string) => sql`CREATE TABLE t (n INTEGER)`.execute(leasedKysely(handles, physical));

describe("open SQLite user databases", () => {
  it("keeps at most the cap open, closing the least recently used idle one", async () => {
    for (const name of ["a", "b", "c"]) await createTable(name);
    expect(openNames()).toEqual(["b", "c"]);
    expect(closed).toEqual(["a"]);
    await write("b", 1);
    await write("a", 2);
    expect(openNames()).toEqual(["b", "a"]);
    expect(closed).toEqual(["a", "c"]);
    // Reopened databases keep their rows.
    expect(await count("a")).toBe(1);
    expect(await count("c")).toBe(0);
  });

  it("never closes a database in use: past the cap with every one in use it answers 503 unavailable", async () => {
    for (const name of ["a", "b", "c"]) await createTable(name);
    const a = handles.retain("a");
    const b = handles.retain("b");
    let refused: unknown;
    try {
      handles.retain("c");
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).code).toBe("unavailable");
    expect((refused as ApiError).headers).toEqual({ "Retry-After": "1" });
    expect(openNames().sort()).toEqual(["a", "b"]);
    // Once one is released, the next database takes its place.
    handles.release(a);
    handles.release(handles.retain("c"));
    expect(openNames()).toEqual(["b", "c"]);
    handles.release(b);
  });

  it("holds a database open for a whole transaction, and a transaction's rows are all there after reopening", async () => {
    for (const name of ["a", "b", "c"]) await createTable(name);
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    const tx = leasedKysely(handles, "a")
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO t (n) VALUES (1)`.execute(trx);
        await waiting;
        await sql`INSERT INTO t (n) VALUES (2)`.execute(trx);
      });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // "a" is inside its transaction, so "b" gives way to "c"; with "c" in use too, nothing may close "a".
    await write("c", 1);
    expect(openNames()).toEqual(["a", "c"]);
    const c = handles.retain("c");
    await expect(write("b", 1)).rejects.toMatchObject({ code: "unavailable" });
    handles.release(c);
    release();
    await tx;
    await write("b", 1);
    expect(closed).toContain("a");
    expect(await count("a")).toBe(2);
  });

  it("closes databases unused for the idle time, and not those used since", async () => {
    for (const name of ["a", "b"]) await createTable(name);
    const now = Date.now();
    handles.closeIdle(now + 30_000);
    expect(openNames()).toEqual(["a", "b"]);
    const inUse = handles.retain("b");
    handles.closeIdle(now + 61_000);
    expect(openNames()).toEqual(["b"]);
    handles.release(inUse);
    handles.closeIdle(Date.now() + 61_000);
    expect(openNames()).toEqual([]);
    expect(await count("b")).toBe(0);
  });
});

describe("WAL journal", () => {
  it("is on for the metadata file and for user databases", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-wal-"));
    const app = await createApp({ engine: "sqlite", dataDir, bcryptCost: 4 });
    try {
      await app.engine.createUserDb("db_1.sqlite");
      const meta = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(app.engine.meta);
      const user = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(app.engine.userDb("db_1.sqlite").db);
      expect([meta.rows[0].journal_mode, user.rows[0].journal_mode]).toEqual(["wal", "wal"]);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
