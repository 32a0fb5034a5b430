// SQLite group commit through the write kernel (the data API's core, called for 20 creates at once so that they
// begin in one event-loop turn, which requests over one test process's loopback rarely do): refusals inside the
// shared transaction roll back alone, and the change events of the stored rows keep consecutive ids.
import { expect, it } from "vitest";
import { handleDataRequest } from "../../lib/api/handle-data-request";
import { loadSchema } from "../../lib/meta/load-schema";
import { sql } from "kysely";
import { createDatabase } from "../contract/contract-helpers";
import { startHarness } from "../helpers/harness";

it("through the write kernel: 20 creates in one turn share one COMMIT; the 9 refused inside it (409, a duplicate) leave no row and no event id", async () => {
  const h = await startHarness("sqlite", "node");
  const db = await createDatabase(h, "batch", [{ name: "items", columns: [{ name: "qty", type: "int", nullable: false }, { name: "code", type: "varchar", unique: true }] }]);
  const headers: Record<string, string> = { "x-api-key": h.accountKey, "content-type": "application/json" };
  const post = (body: unknown) => handleDataRequest(h.app, { method: "POST", pathname: `/v1/${db}/items`, query: new URLSearchParams(), rawQuery: "", header: (n: string) => headers[n], body: JSON.stringify(body), origin: "http://x" } as never);
  const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 ? { qty: i, code: "dup" } : { qty: i, code: `c${i}` })));
  const statuses = replies.map((r) => (r as { status: number }).status);
  expect(statuses).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 && i !== 1 ? 409 : 201)));
  const schema = (await loadSchema(h.app, db))!;
  const udb = h.app.engine.userDb(schema.physical);
  const rows = (await sql<{ qty: number }>`SELECT qty FROM items ORDER BY id`.execute(udb.db)).rows.map((r) => r.qty);
  const events = (await sql<{ n: number; lo: number; hi: number }>`SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM _tabula_events`.execute(udb.db)).rows[0];
  expect(h.app.engine.poolStats()).toMatchObject({ commits: 1, writes: 11 });
  expect(rows).toEqual([0, 1, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  expect(Number(events.n)).toBe(11);
  expect(Number(events.hi) - Number(events.lo)).toBe(10);
  await h.close();
});
