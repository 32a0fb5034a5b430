// Outboxes made before events carried their table's id (and their row's id and actor, for record history) gain
// the columns when a process first loads the database; their old events (no id) are still read by table name, new
// ones by id.
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
    // As an outbox made before tables had ids, rows had ids and changes their actor (record history).
    await sql`DROP INDEX ${sql.id("_tabula_events_row")}${engine === "mysql" ? sql` ON ${udb.table(EVENTS_TABLE)}` : sql``}`.execute(udb.db);
    for (const table of engine === "mysql" ? [EVENTS_TABLE, QUEUE_TABLE] : [EVENTS_TABLE]) {
      for (const column of ["tbl_id", "row_id", "actor"]) await sql`ALTER TABLE ${udb.table(table)} DROP COLUMN ${sql.id(column)}`.execute(udb.db);
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
      // The new write's revision is in its record history; the old event, without a row id, is not.
      const history = await h.request("GET", `/v1/${db}/todos/${entries[1].event!.record.id}/_history`);
      expect(history.body.map((r: { action: string }) => r.action)).toEqual(["insert"]);
    } finally {
      await upgraded.close();
    }
  });
});
