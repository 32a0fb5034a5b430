// Writes whose change events make a big batch: a write by filter over the documented 10,000 rows (SQLite binds
// six variables per event row and allows 32,766 per statement), and 20 rows of ~900 KB JSON (36 MB of events,
// past MariaDB's default 16 MiB max_allowed_packet). Each succeeds with every event recorded. Both engines.
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_FILTER_ROWS } from "../../lib/api/write/change-by-filter";
import { MAX_EVENT_ROWS, splitEventBatches } from "../../lib/events/outbox/event-batches";
import { sequenceEvents } from "../../lib/events/outbox/sequence-events";
import { loadSchema } from "../../lib/meta/load-schema";
import { createDatabase, insert, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";

/** A JSON value of about `bytes` as text: objects of short strings and numbers, like a real document. */
export const bigJson = (bytes: number, seed = 0) => {
  const items: unknown[] = [];
  for (let size = 12; size < bytes; ) {
    const item = { id: seed + items.length, name: `item ${items.length} ${"x".repeat(32)}`, price: items.length * 1.25 };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return { items };
};

describe.each(ENGINES)("big event batches on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";

  /** Events per action of `table` in the outbox, and the largest event's record in bytes. */
  const outbox = async (table: string) => {
    const udb = ctx.h.app.engine.userDb((await loadSchema(ctx.h.app, db))!.physical);
    await sequenceEvents(udb);
    const { rows } = await sql<{ action: string; n: number; biggest: number }>`SELECT ${sql.id("action")}, COUNT(*) AS ${sql.id("n")}, MAX(LENGTH(${sql.id("record")})) AS ${sql.id("biggest")}
      FROM ${udb.table("_tabula_events")} WHERE ${sql.id("tbl")} = ${table} GROUP BY ${sql.id("action")} ORDER BY ${sql.id("action")}`.execute(udb.db);
    return Object.fromEntries(rows.map((r) => [r.action, { n: Number(r.n), biggest: Number(r.biggest) }]));
  };

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "batches", [
      { name: "many", columns: [{ name: "n", type: "int" }] },
      { name: "blobs", columns: [{ name: "tag", type: "varchar" }, { name: "data", type: "json" }] },
    ]);
  });

  it(`a PATCH by filter over ${MAX_FILTER_ROWS.toLocaleString("en-US")} rows succeeds and records one event per row`, async () => {
    for (let first = 0; first < MAX_FILTER_ROWS; first += 1000) {
      await insert(ctx.h, `/v1/${db}/many`, Array.from({ length: 1000 }, (_, i) => ({ n: first + i })));
    }
    const reply = await ctx.h.request("PATCH", `/v1/${db}/many?n_gte=0`, { body: { n: -1 } });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body).toEqual({ affected: MAX_FILTER_ROWS });
    const events = await outbox("many");
    expect([events.insert?.n, events.update?.n]).toEqual([MAX_FILTER_ROWS, MAX_FILTER_ROWS]);
  }, 180_000);

  it("a PATCH by filter over 20 rows of ~900 KB JSON succeeds and records every event whole", async () => {
    for (let i = 0; i < 20; i++) await insert(ctx.h, `/v1/${db}/blobs`, { tag: "big", data: bigJson(900_000, i) });
    const value = bigJson(900_000, 100);
    const reply = await ctx.h.request("PATCH", `/v1/${db}/blobs?tag=big`, { body: { data: value } });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body).toEqual({ affected: 20 });
    const events = await outbox("blobs");
    expect(events.update?.n).toBe(20);
    expect(events.update?.biggest).toBeGreaterThan(900_000);
    const row = await ctx.h.request("GET", `/v1/${db}/blobs?tag=big&_limit=1`);
    expect(row.body[0].data).toEqual(value);
  }, 180_000);
});

describe("event batches under a byte budget", () => {
  const rows = (sizes: number[]) => sizes.map((n, i) => ({ i, n }));
  const cut = (sizes: number[], maxBytes?: number) => splitEventBatches(rows(sizes), (r) => r.n, maxBytes).map((b) => b.map((r) => r.i));

  it("cuts before the row that would pass the budget; a row bigger than it goes alone", () => {
    expect(cut([40, 40, 40, 10, 150, 5], 100)).toEqual([[0, 1], [2, 3], [4], [5]]);
  });

  it(`keeps at most ${MAX_EVENT_ROWS} rows per statement, with or without a budget`, () => {
    const many = Array.from({ length: 2 * MAX_EVENT_ROWS + 1 }, () => 1);
    expect(cut(many).map((b) => b.length)).toEqual([MAX_EVENT_ROWS, MAX_EVENT_ROWS, 1]);
    expect(cut(many, 10 ** 9).map((b) => b.length)).toEqual([MAX_EVENT_ROWS, MAX_EVENT_ROWS, 1]);
  });
});
