// The outbox: for every writer (data API single and bulk, which the dashboard and its CSV import use; auth
// sign-up; the AI builder's seed rows) the events equal the committed rows exactly, and a refused or failed
// write leaves none. Events are read straight from the outbox table of the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlan } from "../../lib/ai/apply-plan";
import { loadSchema } from "../../lib/meta/load-schema";
import { readEvents } from "../../lib/events/outbox/read-events";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { bearer, enableAuth, login, putPolicies } from "../security/security-fixture";

describe.each(ENGINES)("outbox on %s", (engine) => {
  let h: Harness;
  let db: string;
  let cursor = 0;

  /** Events written since the last call. */
  const newEvents = async () => {
    const schema = (await loadSchema(h.app, db))!;
    const entries = await readEvents(h.app.engine.userDb(schema.physical), db, cursor, 10_000);
    if (entries.length) cursor = entries[entries.length - 1].id;
    return entries.map((e) => e.event!);
  };

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    db = await createDatabase(h, "outbox", [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "items", columns: [{ name: "name", type: "varchar", unique: true, nullable: false }, { name: "qty", type: "int" }, { name: "owner_id", type: "bigint", default: "auth.id" }] },
      { name: "links", columns: [{ name: "item_id", type: "reference", references: "items" }] },
    ]);
    await enableAuth(h, db);
    await putPolicies(h, db, "items", { select: "owner_id = auth.id", insert: "owner_id = auth.id", update: "owner_id = auth.id", delete: "owner_id = auth.id" });
    await newEvents();
  }, 60_000);
  afterAll(async () => h?.close());

  it("a single POST writes one insert event with the record as the API returns it", async () => {
    const created = await h.request("POST", `/v1/${db}/items`, { body: { name: "a", qty: 1 } });
    expect(created.status).toBe(201);
    const events = await newEvents();
    expect(events).toEqual([{ id: cursor, db, table: "items", action: "insert", record: created.body, at: expect.stringMatching(/Z$/) }]);
  });

  it("a bulk POST writes one event per row, ids consecutive and in row order", async () => {
    const created = await h.request("POST", `/v1/${db}/items`, { body: [{ name: "b" }, { name: "c" }, { name: "d" }] });
    expect(created.status).toBe(201);
    const events = await newEvents();
    expect(events.map((e) => e.record)).toEqual(created.body);
    expect(events.map((e) => e.id)).toEqual([cursor - 2, cursor - 1, cursor]);
  });

  it("PATCH and PUT write update events carrying the old record; DELETE a delete event", async () => {
    const [item] = (await h.request("POST", `/v1/${db}/items`, { body: [{ name: "changed", qty: 1 }] })).body;
    await newEvents();
    const patched = await h.request("PATCH", `/v1/${db}/items/${item.id}`, { body: { qty: 2 } });
    const put = await h.request("PUT", `/v1/${db}/items/${item.id}`, { body: { name: "changed", qty: 3 } });
    const deleted = await h.request("DELETE", `/v1/${db}/items/${item.id}`);
    expect([patched.status, put.status, deleted.status]).toEqual([200, 200, 204]);
    const events = await newEvents();
    expect(events.map((e) => [e.action, e.old_record?.qty, e.record.qty])).toEqual([["update", 1, 2], ["update", 2, 3], ["delete", 3, 3]]);
    expect(events[0].record).toEqual(patched.body);
  });

  it("auth sign-up writes the user's insert event without the password column", async () => {
    const signup = await h.request("POST", `/v1/${db}/auth/signup`, { body: { email: "s@example.com", password: "signup-password" }, key: null });
    expect(signup.status, signup.text).toBe(201);
    const events = await newEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ table: "users", action: "insert", record: { email: "s@example.com" } });
    expect(Object.keys(events[0].record)).not.toContain("password");
  });

  it("the AI builder's seed rows write insert events", async () => {
    const schema = (await loadSchema(h.app, db))!;
    await applyPlan({ app: h.app, actor: { accountId: h.accountId, isOperator: false, keyDatabaseId: null } }, { name: "", tables: [{ name: "tags", columns: [{ name: "label", type: "varchar" }] as never }], joins: [], seed: { tags: [{ label: "x" }, { label: "y" }] } }, schema);
    const events = await newEvents();
    expect(events.map((e) => [e.table, e.record.label])).toEqual([["tags", "x"], ["tags", "y"]]);
  });

  it("refused and failed writes leave no event: validation, duplicate in a bulk, policy, reference, missing row", async () => {
    const signup = await h.request("POST", `/v1/${db}/auth/signup`, { body: { email: "r@example.com", password: "refused-password" }, key: null });
    expect(signup.status, signup.text).toBe(201);
    const token = await login(h, db, "r@example.com", "refused-password");
    const [b] = (await h.request("POST", `/v1/${db}/items`, { body: [{ name: "taken" }] })).body;
    await newEvents();
    const replies = [
      await h.request("POST", `/v1/${db}/items`, { body: { qty: "many" } }),
      await h.request("POST", `/v1/${db}/items`, { body: [{ name: "e" }, { name: "taken" }] }),
      await h.request("POST", `/v1/${db}/items`, { body: { name: "f", owner_id: 999 }, ...bearer(token) }),
      await h.request("POST", `/v1/${db}/links`, { body: { item_id: 999_999 } }),
      await h.request("PATCH", `/v1/${db}/items/999999`, { body: { qty: 1 } }),
      await h.request("DELETE", `/v1/${db}/items/999999`),
    ];
    expect(replies.map((r) => r.status)).toEqual([422, 409, 403, 422, 404, 404]);
    expect(await newEvents()).toEqual([]);
    await h.request("POST", `/v1/${db}/links`, { body: { item_id: b.id } });
    await newEvents();
    expect((await h.request("DELETE", `/v1/${db}/items/${b.id}`)).status).toBe(409);
    expect((await h.request("PATCH", `/v1/${db}/items/${b.id}`, { body: { qty: 5 }, ...bearer(token) })).status).toBe(404);
    expect(await newEvents()).toEqual([]);
  });

  it("concurrent writers: ids consecutive and in commit order, and a reader polling meanwhile meets every id once", async () => {
    const [counter] = (await h.request("POST", `/v1/${db}/items`, { body: [{ name: "counter", qty: 0 }] })).body;
    const start = cursor;
    await newEvents();
    const seen: number[] = [];
    let writing = true;
    // A reader that keeps reading while the writes run, and once more after the last has committed.
    const poll = (async () => {
      const udb = h.app.engine.userDb((await loadSchema(h.app, db))!.physical);
      for (let at = cursor; ; ) {
        const last = !writing;
        const entries = await readEvents(udb, db, at, 10_000);
        seen.push(...entries.map((e) => e.id));
        if (entries.length) at = entries[entries.length - 1].id;
        if (last) return;
        await new Promise((resolve) => setTimeout(resolve, 2)); // let the writes' requests run
      }
    })();
    const writes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 ? h.request("PATCH", `/v1/${db}/items/${counter.id}`, { body: { qty: i } }) : h.request("POST", `/v1/${db}/items`, { body: { name: `c${i}`, qty: i } }),
      ),
    );
    expect(writes.map((w) => w.status).sort()).toEqual([...Array(20).fill(200), ...Array(20).fill(201)]);
    writing = false;
    await poll;
    const events = await newEvents();
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 40 }, (_, i) => start + 2 + i));
    expect(seen).toEqual(events.map((e) => e.id));
    // Each update's old row is the previous update's new row: the order of ids is the order of the commits.
    const updates = events.filter((e) => e.action === "update");
    expect(updates.slice(1).map((e) => e.old_record!.qty)).toEqual(updates.slice(0, -1).map((e) => e.record.qty));
  });
});
