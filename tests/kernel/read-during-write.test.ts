// A GET by id runs at once on the SQLite connection when it is free (readNow), and never inside another
// request's open write transaction: while one holds the connection the read waits and sees only what committed.
// MariaDB's reads take pool connections of their own; the same assertions hold there too.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inWriteTransaction } from "../../lib/api/write/transaction";
import { loadSchema } from "../../lib/meta/load-schema";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

describe.each(ENGINES)("a by-id read beside an open write transaction (%s)", (engine) => {
  let h: Harness;
  let db = "";
  let id = 0;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    db = await createDatabase(h, "readnow", [{ name: "items", columns: [{ name: "title", type: "varchar", nullable: false }] }]);
    const created = await h.request("POST", `/v1/${db}/items`, { body: { title: "before" } });
    expect(created.status, created.text).toBe(201);
    id = created.body.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it("sees the row as committed before the transaction, then as committed by it", async () => {
    const schema = (await loadSchema(h.app, db))!;
    const udb = h.app.engine.userDb(schema.physical);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let updated = () => {};
    const inside = new Promise<void>((resolve) => (updated = resolve));
    const write = inWriteTransaction(udb, async (tx) => {
      await sql`UPDATE ${tx.table("items")} SET ${sql.id("title")} = ${"uncommitted"} WHERE ${sql.id("id")} = ${id}`.execute(tx.db);
      updated();
      await held;
    });
    await inside;
    const during = h.request("GET", `/v1/${db}/items/${id}`);
    // MariaDB: its own connection answers while the write is open (a read that waited would time the test out),
    // with the last commit. SQLite: the one connection is the transaction's, so the read waits.
    if (engine === "mysql") expect((await during).body.title).toBe("before");
    else expect(await Promise.race([during, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 100))])).toBe("waiting");
    release();
    await write;
    const after = await during;
    expect(after.status, after.text).toBe(200);
    expect(after.body.title).toBe(engine === "sqlite" ? "uncommitted" : "before");
    expect((await h.request("GET", `/v1/${db}/items/${id}`)).body.title).toBe("uncommitted");
  });
});
