// Changes by filter (PRODUCT "Query grammar, second edition"): PATCH and DELETE /{table}?<filters> in one
// transaction, the read grammar's filters, hooks and policies per row, at most 10,000 rows, `{"affected": n}`
// or the rows; events equal the committed rows; a refusal changes nothing and records nothing. Both engines.
import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadSchema } from "../../lib/meta/load-schema";
import { createDatabase, expect422, expectError, insert, list, useHarness } from "./contract-helpers";
import { ENGINES } from "../helpers/harness";
import { putHooks } from "../hooks/hooks-fixture";
import { bearer, enableAuth, putPolicies } from "../security/security-fixture";
import { outboxReader, twoUsers, USERS_TABLE } from "./writes-fixture";
import { addMember, newAccount } from "../teams/team-fixture";

const REPRESENTATION = { prefer: "return=representation" };

describe.each(ENGINES)("writes by filter on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  const tasks = () => list(ctx.h, `/v1/${db}/tasks?_limit=1000`);
  const seed = (rows: Record<string, unknown>[]) => insert(ctx.h, `/v1/${db}/tasks`, rows);

  let newEvents: ReturnType<typeof outboxReader>;

  beforeAll(async () => {
    newEvents = outboxReader(ctx.h, () => db);
    db = await createDatabase(ctx.h, "by_filter", [
      USERS_TABLE,
      {
        name: "tasks",
        columns: [
          { name: "title", type: "varchar", nullable: false },
          { name: "status", type: "dropdown", options: ["todo", "done", "archived"], nullable: false, default: "todo" },
          { name: "points", type: "int" },
          { name: "log", type: "varchar" },
          { name: "owner_id", type: "bigint", default: "auth.id" },
        ],
      },
      { name: "bulk", columns: [{ name: "n", type: "int" }] },
    ]);
    await putHooks(ctx.h, db, "tasks", {
      update: [{ assert: "new.points == null || new.points <= 100", message: "points stay at most 100" }, { set: "log", expr: "'was ' + old.status" }],
      delete: [{ assert: "old.status != 'done'", message: "done tasks are kept" }],
    });
    await enableAuth(ctx.h, db);
    await putPolicies(ctx.h, db, "tasks", { select: "true", insert: "owner_id = auth.id", update: "owner_id = auth.id and points < 50", delete: "owner_id = auth.id" });
    await newEvents();
  });

  it("PATCH sets the body's columns on every matching row (update hook per row) and answers {affected}", async () => {
    const rows = await seed([{ title: "a", points: 1, owner_id: 1 }, { title: "b", points: 2, owner_id: 1 }, { title: "c", points: 30, owner_id: 1 }]);
    await newEvents();
    const reply = await ctx.h.request("PATCH", `/v1/${db}/tasks?points_lt=10&title_in=a,b,c`, { body: { status: "done" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ affected: 2 });
    const after = (await tasks()).filter((t) => rows.some((r: any) => r.id === t.id));
    expect(after.map((t) => [t.title, t.status, t.log])).toEqual([["a", "done", "was todo"], ["b", "done", "was todo"], ["c", "todo", null]]);
    const events = await newEvents();
    expect(events.map((e) => [e.action, e.old_record?.status, e.record])).toEqual([["update", "todo", after[0]], ["update", "todo", after[1]]]);
  });

  it("with Prefer: return=representation PATCH answers the rows as stored, DELETE the rows removed", async () => {
    const [x, y] = await seed([{ title: "rep-x", points: 5 }, { title: "rep-y", points: 6 }]);
    await newEvents();
    const patched = await ctx.h.request("PATCH", `/v1/${db}/tasks?title_like=rep-`, { body: { points: 7 }, headers: REPRESENTATION });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.map((r: any) => [r.id, r.points, r.log])).toEqual([[x.id, 7, "was todo"], [y.id, 7, "was todo"]]);
    const deleted = await ctx.h.request("DELETE", `/v1/${db}/tasks?title_like=rep-`, { headers: REPRESENTATION });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual(patched.body);
    expect((await tasks()).filter((t) => t.title.startsWith("rep-"))).toEqual([]);
    const events = await newEvents();
    expect(events.map((e) => e.action)).toEqual(["update", "update", "delete", "delete"]);
    expect(events.slice(2).map((e) => e.old_record)).toEqual(deleted.body);
  });

  it("an _or group alone is a filter: DELETE removes exactly the rows it matches", async () => {
    const [keep, dropA, dropB] = await seed([{ title: "or-keep", points: 5 }, { title: "or-a", points: 6 }, { title: "or-b", points: 7 }]);
    await newEvents();
    const group = encodeURIComponent("title=or-a&points=7");
    const reply = await ctx.h.request("DELETE", `/v1/${db}/tasks?_or=${group}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ affected: 2 });
    const left = (await tasks()).map((t) => t.id);
    expect(left).toContain(keep.id);
    expect(left).not.toContain(dropA.id);
    expect(left).not.toContain(dropB.id);
    expect((await newEvents()).map((e) => [e.action, e.old_record?.id])).toEqual([["delete", dropA.id], ["delete", dropB.id]]);
  });

  it("no matching row: {affected: 0} and no event", async () => {
    expect((await ctx.h.request("DELETE", `/v1/${db}/tasks?title=nothing-here`)).body).toEqual({ affected: 0 });
    expect(await newEvents()).toEqual([]);
  });

  it("a hook refusing one row refuses them all: 422 with the hook's field, nothing changed, no event", async () => {
    await seed([{ title: "h1", points: 1 }, { title: "h2", points: 2, status: "done" }]);
    await newEvents();
    const before = await tasks();
    expect422(await ctx.h.request("DELETE", `/v1/${db}/tasks?title_in=h1,h2`), "hook.delete[0]");
    expect422(await ctx.h.request("PATCH", `/v1/${db}/tasks?title_in=h1,h2`, { body: { points: 101 } }), "hook.update[0]");
    expect(await tasks()).toEqual(before);
    expect(await newEvents()).toEqual([]);
  });

  it.each([
    ["DELETE without a filter", "DELETE", "", undefined, ["filter"]],
    ["PATCH without a filter", "PATCH", "", { points: 1 }, ["filter"]],
    ["paging parameters", "PATCH", "?title=a&_limit=5&_sort=id", { points: 1 }, ["_limit", "_sort"]],
    ["an unknown column in a filter", "DELETE", "?nope=1", undefined, ["nope"]],
    ["a bad filter value", "DELETE", "?points_gt=many", undefined, ["points_gt"]],
    ["an empty body", "PATCH", "?title=a", {}, ["body"]],
    ["an automatic column in the body", "PATCH", "?title=a", { id: 5 }, ["id"]],
    ["a bad value in the body", "PATCH", "?title=a", { status: "lost" }, ["status"]],
  ])("422 for %s, naming it; nothing changed", async (_label, method, query, body, fields) => {
    const before = await tasks();
    expect422(await ctx.h.request(method, `/v1/${db}/tasks${query}`, { body }), ...fields);
    expect(await tasks()).toEqual(before);
    expect(await newEvents()).toEqual([]);
  });

  it("more than 10,000 matching rows: 422 naming the count, nothing changed", async () => {
    const schema = (await loadSchema(ctx.h.app, db))!;
    const udb = ctx.h.app.engine.userDb(schema.physical);
    const stamp = new Date().toISOString().slice(0, 23).replace("T", " ");
    const values = Array.from({ length: 10_001 }, (_, i) => sql`(${i % 7}, ${stamp}, ${stamp})`);
    for (let i = 0; i < values.length; i += 2000) {
      await sql`INSERT INTO ${udb.table("bulk")} (n, created_at, updated_at) VALUES ${sql.join(values.slice(i, i + 2000))}`.execute(udb.db);
    }
    const reply = await ctx.h.request("DELETE", `/v1/${db}/bulk?n_gte=0`);
    expect422(reply, "filter");
    expect(reply.body.message).toContain("10001");
    const counted = await ctx.h.request("GET", `/v1/${db}/bulk?_limit=1`, { headers: { prefer: "count=exact" } });
    expect(counted.headers.get("x-total-count")).toBe("10001");
    const fewer = await ctx.h.request("DELETE", `/v1/${db}/bulk?n=0`);
    expect(fewer.status, fewer.text).toBe(200);
    expect(fewer.body).toEqual({ affected: 1429 });
    expect((await newEvents()).length).toBe(1429);
  }, 60_000);

  describe("row policies", () => {
    let { idA, tokenA, tokenB } = { idA: 0, tokenA: "", tokenB: "" };
    beforeAll(async () => {
      ({ idA, tokenA, tokenB } = await twoUsers(ctx.h, db));
    });

    // The owner's two rows as each test starts (the secret key clears what an earlier one left).
    beforeEach(async () => {
      await ctx.h.request("DELETE", `/v1/${db}/tasks?title_like=p-`);
      await seed([{ title: "p-low", points: 10, owner_id: idA }, { title: "p-high", points: 60, owner_id: idA }]);
      await newEvents();
    });

    it("the update policy limits the rows a JWT user's PATCH reaches; the owner's allowed rows change", async () => {
      const reply = await ctx.h.request("PATCH", `/v1/${db}/tasks?title_like=p-`, { body: { points: 20 }, ...bearer(tokenA) });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ affected: 1 });
      expect((await tasks()).filter((t) => t.title.startsWith("p-")).map((t) => [t.title, t.points])).toEqual([["p-low", 20], ["p-high", 60]]);
      expect((await newEvents()).map((e) => e.record.title)).toEqual(["p-low"]);
    });

    it("another user's PATCH and DELETE reach none of the owner's rows", async () => {
      const before = await tasks();
      expect((await ctx.h.request("PATCH", `/v1/${db}/tasks?title_like=p-`, { body: { points: 1 }, ...bearer(tokenB) })).body).toEqual({ affected: 0 });
      expect((await ctx.h.request("DELETE", `/v1/${db}/tasks?title_like=p-`, bearer(tokenB))).body).toEqual({ affected: 0 });
      expect(await tasks()).toEqual(before);
      expect(await newEvents()).toEqual([]);
    });

    it("a new value the update policy refuses is 403 and nothing changes", async () => {
      await seed([{ title: "p-two", points: 5, owner_id: idA }]);
      await newEvents();
      const before = await tasks();
      expectError(await ctx.h.request("PATCH", `/v1/${db}/tasks?title_like=p-`, { body: { points: 70 }, ...bearer(tokenA) }), 403, "forbidden");
      expectError(await ctx.h.request("PATCH", `/v1/${db}/tasks?title_like=p-`, { body: { owner_id: 999 }, ...bearer(tokenA) }), 403, "forbidden");
      expect(await tasks()).toEqual(before);
      expect(await newEvents()).toEqual([]);
    });

    it("the owner deletes their rows by filter; a secret key reaches every row", async () => {
      await seed([{ title: "p-two", points: 5, owner_id: idA }]);
      await newEvents();
      expect((await ctx.h.request("DELETE", `/v1/${db}/tasks?title=p-two`, bearer(tokenA))).body).toEqual({ affected: 1 });
      expect((await ctx.h.request("PATCH", `/v1/${db}/tasks?title_like=p-`, { body: { points: 99 } })).body).toEqual({ affected: 2 });
      expect((await newEvents()).map((e) => [e.action, e.record.title])).toEqual([["delete", "p-two"], ["update", "p-low"], ["update", "p-high"]]);
    });

    it("a table closed to JWT users for the action is 403", async () => {
      expectError(await ctx.h.request("DELETE", `/v1/${db}/users?email=a@example.com`, bearer(tokenA)), 403, "forbidden");
      expect((await list(ctx.h, `/v1/${db}/users`)).length).toBe(2);
    });
  });

  describe("member roles", () => {
    it("a viewer's key is refused (403, nothing changed), an editor's key changes and deletes by filter", async () => {
      const owner = await newAccount(ctx.h, "pro");
      const shop = await createDatabase(ctx.h, "roles", [{ name: "items", columns: [{ name: "sku", type: "varchar" }, { name: "qty", type: "int" }] }], owner.key);
      await ctx.h.request("POST", `/v1/${shop}/items`, { body: [{ sku: "a", qty: 1 }, { sku: "b", qty: 2 }], key: owner.key });
      const viewer = await addMember(ctx.h, owner, "viewer");
      const editor = await addMember(ctx.h, owner, "editor");
      const rows = () => ctx.h.request("GET", `/v1/${shop}/items`, { key: owner.key }).then((r) => r.body.map((x: any) => [x.sku, x.qty]));
      expectError(await ctx.h.request("PATCH", `/v1/${shop}/items?qty_gt=0`, { body: { qty: 9 }, key: viewer.key }), 403, "forbidden");
      expectError(await ctx.h.request("DELETE", `/v1/${shop}/items?qty_gt=0`, { key: viewer.key }), 403, "forbidden");
      expect(await rows()).toEqual([["a", 1], ["b", 2]]);
      expect((await ctx.h.request("PATCH", `/v1/${shop}/items?qty_gt=1`, { body: { qty: 9 }, key: editor.key })).body).toEqual({ affected: 1 });
      expect((await ctx.h.request("DELETE", `/v1/${shop}/items?sku=a`, { key: editor.key })).body).toEqual({ affected: 1 });
      expect(await rows()).toEqual([["b", 9]]);
    });
  });
});
