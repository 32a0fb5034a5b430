// Outboxes made before events carried their table's id gain the column when a process first loads the
// database; their old events (no id) are still read by table name, new ones by id.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../lib/app";
import { ensureOutbox, EVENTS_TABLE, QUEUE_TABLE } from "../../lib/events/outbox/outbox-table";
import { readEvents } from "../../lib/events/outbox/read-events";
import { loadSchema } from "../../lib/meta/load-schema";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

describe.each(ENGINES)("outbox table ids on %s", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("an outbox without tbl_id gains it; its old events match by name, new ones by id", async () => {
    const db = await createDatabase(h, "legacy", [{ name: "todos", columns: [{ name: "title", type: "varchar" }] }]);
    const { physical, tables } = (await loadSchema(h.app, db))!;
    const todos = { id: tables.get("todos")!.id, name: "todos" };
    expect((await h.request("POST", `/v1/${db}/todos`, { body: { title: "before ids" } })).status).toBe(201);
    await readEvents(h.app.engine.userDb(physical), db, 0, 10); // sequenced (MySQL) before the column goes
    const udb = h.app.engine.userDb(physical);
    for (const table of engine === "mysql" ? [EVENTS_TABLE, QUEUE_TABLE] : [EVENTS_TABLE]) {
      await sql`ALTER TABLE ${udb.table(table)} DROP COLUMN ${sql.id("tbl_id")}`.execute(udb.db);
    }
    const upgraded = await createApp(h.app.config); // a new process: its own outbox check
    try {
      await ensureOutbox(upgraded.engine, physical);
      const read = (filter: { id: number; name: string }[]) => readEvents(upgraded.engine.userDb(physical), db, 0, 10, filter);
      expect((await read([todos])).map((e) => e.event?.record.title)).toEqual(["before ids"]);
      expect((await read([{ id: todos.id + 1000, name: "other" }])).map((e) => e.event)).toEqual([undefined]);
      expect((await h.request("POST", `/v1/${db}/todos`, { body: { title: "with ids" } })).status).toBe(201);
      const entries = await read([todos]);
      expect(entries.map((e) => [e.event?.record.title, e.tableId])).toEqual([["before ids", null], ["with ids", todos.id]]);
      expect((await read([{ id: todos.id + 1000, name: "todos" }])).map((e) => e.event?.record.title)).toEqual(["before ids", undefined]);
    } finally {
      await upgraded.close();
    }
  });
});
