// Upsert (PRODUCT "Query grammar, second edition"): POST with `Prefer: resolution=merge-duplicates` and
// `_on_conflict`: 201 created, 200 merged (only the given columns change), per-row outcomes in bulk; insert or
// update hooks and policies per row; events equal the committed rows; a refusal changes nothing. Both engines.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, expectError, insert, list, useHarness } from "./contract-helpers";
import { ENGINES } from "../helpers/harness";
import { putHooks } from "../hooks/hooks-fixture";
import { bearer, enableAuth, putPolicies } from "../security/security-fixture";
import { outboxReader, twoUsers, USERS_TABLE } from "./writes-fixture";
import { addMember, newAccount } from "../teams/team-fixture";

const MERGE = { prefer: "resolution=merge-duplicates" };

describe.each(ENGINES)("upsert on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  const upsert = (body: unknown, query = "_on_conflict=sku", as?: ReturnType<typeof bearer>) =>
    ctx.h.request("POST", `/v1/${db}/items?${query}`, { body, ...as, headers: { ...MERGE, ...as?.headers } });
  const items = () => list(ctx.h, `/v1/${db}/items?_limit=1000`);

  let newEvents: ReturnType<typeof outboxReader>;

  beforeAll(async () => {
    newEvents = outboxReader(ctx.h, () => db);
    db = await createDatabase(ctx.h, "upserts", [
      USERS_TABLE,
      {
        name: "items",
        columns: [
          { name: "sku", type: "varchar", unique: true, nullable: false },
          { name: "name", type: "varchar", nullable: false },
          { name: "qty", type: "int" },
          { name: "note", type: "varchar" },
          { name: "shared", type: "boolean", nullable: false, default: false },
          { name: "owner_id", type: "bigint", default: "auth.id" },
        ],
      },
    ]);
    await putHooks(ctx.h, db, "items", { insert: [{ set: "note", expr: "'inserted'" }], update: [{ set: "note", expr: "'merged'" }] });
    await enableAuth(ctx.h, db);
    await putPolicies(ctx.h, db, "items", { select: "owner_id = auth.id or shared = true", insert: "owner_id = auth.id", update: "owner_id = auth.id", delete: null });
    await newEvents();
  });

  it("creates a row whose value is new (201, insert hook) and merges one whose value exists (200, update hook, only given columns change)", async () => {
    const created = await upsert({ sku: "a-1", name: "Lamp", qty: 1, owner_id: 1 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ sku: "a-1", name: "Lamp", qty: 1, note: "inserted" });
    expect(created.headers.get("preference-applied")).toBe("resolution=merge-duplicates");
    const merged = await upsert({ sku: "a-1", qty: 7 });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toEqual({ ...created.body, qty: 7, note: "merged", updated_at: expect.any(String) });
    expect((await items()).filter((r) => r.sku === "a-1")).toEqual([merged.body]);
    const events = await newEvents();
    expect(events.map((e) => [e.action, e.record])).toEqual([["insert", created.body], ["update", merged.body]]);
    expect(events[1].old_record).toEqual(created.body);
  });

  it("bulk: 201 when any row is created, each row with its own outcome in body order; 200 when all merge", async () => {
    await upsert({ sku: "a-1", name: "Lamp", qty: 7, owner_id: 1 });
    await newEvents();
    const reply = await upsert([{ sku: "a-1", name: "Lamp 2" }, { sku: "b-1", name: "Bowl", owner_id: 1 }, { sku: "b-1", qty: 3 }]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.map((o: any) => [o.status, o.record.sku, o.record.name, o.record.qty, o.record.note])).toEqual([
      [200, "a-1", "Lamp 2", 7, "merged"],
      [201, "b-1", "Bowl", null, "inserted"],
      [200, "b-1", "Bowl", 3, "merged"],
    ]);
    const events = await newEvents();
    expect(events.map((e) => e.action)).toEqual(["update", "insert", "update"]);
    expect(events.map((e) => e.record)).toEqual(reply.body.map((o: any) => o.record));
    const again = await upsert([{ sku: "a-1", qty: 8 }, { sku: "b-1", qty: 9 }]);
    expect(again.status, again.text).toBe(200);
    expect(again.body.map((o: any) => o.status)).toEqual([200, 200]);
    await newEvents();
  });

  it("_on_conflict=id merges by id; an id that matches no row is a 422 naming it", async () => {
    await upsert({ sku: "b-1", name: "Bowl", owner_id: 1 });
    await newEvents();
    const [row] = (await items()).filter((r) => r.sku === "b-1");
    const merged = await upsert({ id: row.id, qty: 10 }, "_on_conflict=id");
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({ id: row.id, sku: "b-1", qty: 10 });
    expect422(await upsert([{ sku: "c-0", name: "C" }, { id: 999_999, qty: 1 }], "_on_conflict=id"), "[1].id");
    await newEvents();
  });

  it.each([
    ["_on_conflict without the Prefer header", "_on_conflict=sku", {}],
    ["the Prefer header without _on_conflict", "", MERGE],
    ["a column that is not unique", "_on_conflict=name", MERGE],
    ["a column that does not exist", "_on_conflict=nope", MERGE],
    ["two columns", "_on_conflict=sku&_on_conflict=id", MERGE],
  ])("422 naming _on_conflict for %s; nothing written", async (_label, query, headers) => {
    const before = await items();
    const reply = await ctx.h.request("POST", `/v1/${db}/items?${query}`, { body: { sku: "z-1", name: "Z" }, headers });
    expect422(reply, "_on_conflict");
    expect(await items()).toEqual(before);
    expect(await newEvents()).toEqual([]);
  });

  it("422 naming any other query parameter, and every invalid row of a bulk; nothing written", async () => {
    const before = await items();
    expect422(await upsert({ sku: "z-1", name: "Z" }, "_on_conflict=sku&qty=1"), "qty");
    expect422(await upsert([{ sku: "z-1", name: "Z" }, { sku: "z-2" }]), "[1].name");
    expect422(await upsert({ sku: "a-1", qty: "many" }), "qty");
    expect(await items()).toEqual(before);
    expect(await newEvents()).toEqual([]);
  });

  describe("row policies", () => {
    let { idA, tokenA, tokenB } = { idA: 0, tokenA: "", tokenB: "" };
    beforeAll(async () => {
      ({ idA, tokenA, tokenB } = await twoUsers(ctx.h, db));
      await insert(ctx.h, `/v1/${db}/items`, [
        { sku: "pa-hidden", name: "A private", owner_id: idA },
        { sku: "pa-shared", name: "A shared", owner_id: idA, shared: true },
      ]);
      await newEvents();
    });

    it("allows the owner to create (owner filled from auth.id) and to merge their row", async () => {
      const created = await upsert({ sku: "pa-new", name: "A new" }, undefined, bearer(tokenA));
      expect(created.status, created.text).toBe(201);
      expect(created.body.owner_id).toBe(idA);
      const merged = await upsert({ sku: "pa-hidden", qty: 2 }, undefined, bearer(tokenA));
      expect(merged.status, merged.text).toBe(200);
      expect(merged.body).toMatchObject({ sku: "pa-hidden", qty: 2, owner_id: idA });
      expect((await newEvents()).map((e) => e.action)).toEqual(["insert", "update"]);
    });

    it("refuses another user: 403 on a row they see but may not update, 409 on one hidden from them, 403 on a created row the insert policy refuses; nothing changed", async () => {
      const before = await items();
      expectError(await upsert({ sku: "pa-shared", qty: 5 }, undefined, bearer(tokenB)), 403, "forbidden");
      expectError(await upsert({ sku: "pa-hidden", qty: 5 }, undefined, bearer(tokenB)), 409, "conflict", ["sku"]);
      expectError(await upsert([{ sku: "pb-new", name: "B" }, { sku: "pb-2", name: "B2", owner_id: idA }], undefined, bearer(tokenB)), 403, "forbidden");
      expect(await items()).toEqual(before);
      expect(await newEvents()).toEqual([]);
    });

    it("a secret key merges any row (the server role)", async () => {
      const merged = await upsert({ sku: "pa-shared", qty: 6 });
      expect(merged.status, merged.text).toBe(200);
      expect(merged.body.qty).toBe(6);
      await newEvents();
    });
  });

  describe("member roles", () => {
    it("a viewer's key is refused (403, nothing written), an editor's key upserts", async () => {
      const owner = await newAccount(ctx.h, "pro");
      const shop = await createDatabase(ctx.h, "roles", [{ name: "items", columns: [{ name: "sku", type: "varchar", unique: true }, { name: "qty", type: "int" }] }], owner.key);
      const viewer = await addMember(ctx.h, owner, "viewer");
      const editor = await addMember(ctx.h, owner, "editor");
      const send = (key: string, qty: number) => ctx.h.request("POST", `/v1/${shop}/items?_on_conflict=sku`, { body: { sku: "k", qty }, headers: MERGE, key });
      expectError(await send(viewer.key, 1), 403, "forbidden");
      expect((await ctx.h.request("GET", `/v1/${shop}/items`, { key: owner.key })).body).toEqual([]);
      expect((await send(editor.key, 2)).status).toBe(201);
      const merged = await send(editor.key, 3);
      expect(merged.status, merged.text).toBe(200);
      expect((await ctx.h.request("GET", `/v1/${shop}/items`, { key: owner.key })).body.map((r: any) => r.qty)).toEqual([3]);
    });
  });
});
