// Record history over real HTTP on both engines: revisions with their changed columns and actor (a key, the
// dashboard's member, a JWT user), restores (an update back, a deleted row with its id), the row's read rules
// as pairs, restores refused with nothing written, a table without history, and HISTORY_DAYS retention.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS_TABLE } from "../../lib/events/outbox/outbox-table";
import { outboxBounds } from "../../lib/events/outbox/read-events";
import { pruneDatabase } from "../../lib/events/outbox/prune-events";
import { sequenceEvents } from "../../lib/events/outbox/sequence-events";
import { loadSchema } from "../../lib/meta/load-schema";
import { createDatabase, insert } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { bearer, type Fixture, makeFixture } from "../security/security-fixture";
import { addMember, newAccount } from "../teams/team-fixture";
import { readEventsConfig } from "../../lib/events/events-config";

const DAY = 86_400_000;

describe.each(ENGINES)("record history on %s", (engine) => {
  let h: Harness;
  let db: string;
  let ci: { id: number; key: string };
  let dashboard: { id: number; key: string };
  const history = (table: string, id: number, key: string | null = ci.key, query = "") => h.request("GET", `/v1/${db}/${table}/${id}/_history${query}`, { key });
  const restore = (table: string, id: number, rev: unknown, key = ci.key) => h.request("POST", `/v1/${db}/${table}/${id}/_restore`, { body: { rev }, key });

  beforeAll(async () => {
    // HISTORY_DAYS=3, so the retention case tells it from the default 30.
    h = await startHarness(engine, "node", { config: { events: readEventsConfig({ HISTORY_DAYS: "3" } as unknown as NodeJS.ProcessEnv) } });
    db = await createDatabase(h, "history", [
      { name: "categories", columns: [{ name: "name", type: "varchar", nullable: false }] },
      {
        name: "products",
        columns: [
          { name: "name", type: "varchar", nullable: false },
          { name: "price", type: "decimal", precision: 10, scale: 2 },
          { name: "status", type: "dropdown", options: ["draft", "live", "gone"], default: "draft" },
          { name: "category_id", type: "reference", references: "categories" },
        ],
      },
      { name: "logs", history: false, columns: [{ name: "line", type: "varchar" }] },
    ]);
    const made = async (name: string) => {
      const reply = await h.request("POST", "/api/v1/keys", { body: { name, database: null } });
      expect(reply.status, reply.text).toBe(201);
      return { id: reply.body.id as number, key: reply.body.key as string };
    };
    ci = await made("ci");
    dashboard = await made("Dashboard");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("three updates and a delete: five revisions, newest first, with the changed columns and the key as actor", async () => {
    const [cat] = await insert(h, `/v1/${db}/categories`, [{ name: "Tools" }]);
    const p = (await h.request("POST", `/v1/${db}/products`, { body: { name: "Hammer", price: 19.99, category_id: cat.id }, key: ci.key })).body;
    for (const body of [{ name: "Hammer XL" }, { price: 24.5 }, { status: "live", name: "Hammer XL" }]) {
      expect((await h.request("PATCH", `/v1/${db}/products/${p.id}`, { body, key: ci.key })).status).toBe(200);
    }
    expect((await h.request("DELETE", `/v1/${db}/products/${p.id}`, { key: ci.key })).status).toBe(204);
    const reply = await history("products", p.id);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.map((r: any) => [r.action, r.changed])).toEqual([
      ["delete", []],
      ["update", ["status"]],
      ["update", ["price"]],
      ["update", ["name"]],
      ["insert", ["name", "price", "status", "category_id"]],
    ]);
    expect(reply.body.every((r: any) => r.actor.kind === "key" && r.actor.id === ci.id)).toBe(true);
    expect(reply.body[1].record).toMatchObject({ id: p.id, name: "Hammer XL", status: "live" });
    const revs = reply.body.map((r: any) => r.rev);
    expect([...revs].sort((a, b) => b - a)).toEqual(revs);
    // Paging: _limit and _after (older than that rev).
    const first = await history("products", p.id, ci.key, "?_limit=2");
    const next = await history("products", p.id, ci.key, `?_limit=2&_after=${first.body[1].rev}`);
    expect([...first.body, ...next.body].map((r: any) => r.rev)).toEqual(revs.slice(0, 4));
    const bad = await history("products", p.id, ci.key, "?_limit=0");
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("_limit");
  });

  it("the dashboard's key writes as its member; a viewer-less account key as a key", async () => {
    const p = (await h.request("POST", `/v1/${db}/products`, { body: { name: "Saw" }, key: dashboard.key })).body;
    await h.request("PATCH", `/v1/${db}/products/${p.id}`, { body: { price: 3 }, key: ci.key });
    const reply = await history("products", p.id);
    expect(reply.body.map((r: any) => r.actor)).toEqual([{ kind: "key", id: ci.id }, { kind: "member", id: h.accountId }]);
  });

  it("restores an update back, and a deleted row with its id; each restore is a new revision", async () => {
    const p = (await h.request("POST", `/v1/${db}/products`, { body: { name: "Drill", price: 50 }, key: ci.key })).body;
    await h.request("PATCH", `/v1/${db}/products/${p.id}`, { body: { name: "Drill Pro", price: 80 }, key: ci.key });
    const created = (await history("products", p.id)).body.at(-1);
    const back = await restore("products", p.id, created.rev, dashboard.key);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ id: p.id, name: "Drill", price: 50 });
    let revisions = (await history("products", p.id)).body;
    expect(revisions[0]).toMatchObject({ action: "update", changed: ["name", "price"], actor: { kind: "member", id: h.accountId } });
    expect(revisions).toHaveLength(3);

    expect((await h.request("DELETE", `/v1/${db}/products/${p.id}`, { key: ci.key })).status).toBe(204);
    const deleted = await h.request("GET", `/v1/${db}/products/_deleted`, { key: ci.key });
    expect(deleted.body.map((r: any) => r.record.id)).toContain(p.id);
    const revived = await restore("products", p.id, revisions[1].rev);
    expect(revived.status, revived.text).toBe(200);
    expect(revived.body).toMatchObject({ id: p.id, name: "Drill Pro", price: 80, created_at: p.created_at });
    expect((await h.request("GET", `/v1/${db}/products/${p.id}`, { key: ci.key })).body.name).toBe("Drill Pro");
    revisions = (await history("products", p.id)).body;
    expect(revisions.map((r: any) => r.action)).toEqual(["insert", "delete", "update", "update", "insert"]);
    expect((await h.request("GET", `/v1/${db}/products/_deleted`, { key: ci.key })).body.map((r: any) => r.record.id)).not.toContain(p.id);
    // A delete's revision holds the row as it was deleted (restored to "Drill" then): restoring it brings that back.
    const again = await restore("products", p.id, revisions[1].rev);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ name: "Drill", price: 50 });
  });

  it("422 when a revision's value can no longer be written (an option removed, a deleted reference); nothing is written", async () => {
    const [c1, c2] = await insert(h, `/v1/${db}/categories`, [{ name: "Old" }, { name: "New" }]);
    const p = (await h.request("POST", `/v1/${db}/products`, { body: { name: "Plane", status: "gone", category_id: c1.id }, key: ci.key })).body;
    await h.request("PATCH", `/v1/${db}/products/${p.id}`, { body: { status: "live", category_id: c2.id }, key: ci.key });
    const [, created] = (await history("products", p.id)).body;
    expect((await h.request("DELETE", `/v1/${db}/categories/${c1.id}`)).status).toBe(204);
    const column = await h.request("PATCH", `/api/v1/databases/${db}/tables/products/columns/status`, { body: { options: ["draft", "live"] } });
    expect(column.status, column.text).toBe(200);
    const before = (await history("products", p.id)).body.length;
    const refused = await restore("products", p.id, created.rev);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors.map((e: any) => e.field).sort()).toContain("status");
    const row = (await h.request("GET", `/v1/${db}/products/${p.id}`, { key: ci.key })).body;
    expect(row).toMatchObject({ status: "live", category_id: c2.id });
    expect((await history("products", p.id)).body).toHaveLength(before);
    // With the option back, the reference is the problem left.
    await h.request("PATCH", `/api/v1/databases/${db}/tables/products/columns/status`, { body: { options: ["draft", "live", "gone"] } });
    const dangling = await restore("products", p.id, created.rev);
    expect(dangling.status, dangling.text).toBe(422);
    expect(dangling.body.errors[0].field).toBe("category_id");
    expect((await history("products", p.id)).body).toHaveLength(before);
    const unknown = await restore("products", p.id, 999_999_999);
    expect(unknown.body.errors[0]).toMatchObject({ field: "rev", code: "not_found" });
  });

  it("a table without history answers 404 on history and restore; turning it on starts from the next change", async () => {
    const [line] = await insert(h, `/v1/${db}/logs`, [{ line: "one" }]);
    const off = await history("logs", line.id);
    expect(off.status).toBe(404);
    expect(off.body.message).toContain("keeps no record history");
    expect((await restore("logs", line.id, 1)).status).toBe(404);
    const on = await h.request("PATCH", `/api/v1/databases/${db}/tables/logs`, { body: { history: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.history).toBe(true);
    await h.request("PATCH", `/v1/${db}/logs/${line.id}`, { body: { line: "two" } });
    expect((await history("logs", line.id)).body.map((r: any) => r.action)).toEqual(["update", "insert"]);
    const back = await h.request("PATCH", `/api/v1/databases/${db}/tables/logs`, { body: { history: false } });
    expect(back.body.history).toBe(false);
    const empty = await h.request("PATCH", `/api/v1/databases/${db}/tables/logs`, { body: {} });
    expect(empty.status).toBe(422);
  });

  it("retention: events of history tables stay HISTORY_DAYS, others leave at the feed's retention, and the feed does not replay kept ones", async () => {
    const [kept] = await insert(h, `/v1/${db}/categories`, [{ name: "Kept" }]);
    const [line] = await insert(h, `/v1/${db}/logs`, [{ line: "pruned" }]);
    const schema = (await loadSchema(h.app, db))!;
    const udb = h.app.engine.userDb(schema.physical);
    const count = async (tableId: number) => {
      await sequenceEvents(udb); // MySQL: queued events get their ids first
      return Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${udb.table(EVENTS_TABLE)} WHERE tbl_id = ${tableId} AND row_id = ${line.id}`.execute(udb.db)).rows[0].n);
    };
    expect(await count(schema.tables.get("logs")!.id)).toBe(1);
    await pruneDatabase(h.app, schema.physical, Date.now() + 2 * DAY);
    expect(await count(schema.tables.get("logs")!.id)).toBe(0);
    expect((await history("categories", kept.id)).body).toHaveLength(1);
    const { low, high } = await outboxBounds(udb);
    expect(low).toBe(high + 1); // the feed sees none of them
    await pruneDatabase(h.app, schema.physical, Date.now() + 4 * DAY);
    expect((await history("categories", kept.id)).body).toEqual([]);
  });

  it("the database's OpenAPI document has both paths for tables with history, none for a table without", async () => {
    const doc = (await h.request("GET", `/v1/${db}/openapi.json`)).body;
    expect(doc.paths["/products/{id}/_history"].get.responses["200"]).toBeDefined();
    expect(doc.paths["/products/{id}/_restore"].post.requestBody.content["application/json"].example).toEqual({ rev: 42 });
    expect(doc.components.schemas.Revision.required).toEqual(["rev", "action", "record", "changed", "at", "actor"]);
    expect(doc.paths["/logs/{id}/_history"]).toBeUndefined();
  });

  it("dashboard member roles: a viewer reads history and may not restore (403); an editor restores, as a member through the dashboard's key", async () => {
    const owner = await newAccount(h, "pro");
    const shared = await createDatabase(h, "history team", [{ name: "notes", columns: [{ name: "title", type: "varchar" }] }], owner.key);
    const viewer = await addMember(h, owner, "viewer");
    const editor = await addMember(h, owner, "editor");
    const editorDashboard = await h.request("POST", "/api/v1/keys", { body: { name: "Dashboard", database: null }, key: editor.key });
    expect(editorDashboard.status, editorDashboard.text).toBe(201);
    const note = (await h.request("POST", `/v1/${shared}/notes`, { body: { title: "first" }, key: owner.key })).body;
    await h.request("PATCH", `/v1/${shared}/notes/${note.id}`, { body: { title: "second" }, key: owner.key });
    const read = await h.request("GET", `/v1/${shared}/notes/${note.id}/_history`, { key: viewer.key });
    expect(read.status, read.text).toBe(200);
    const first = read.body[1].rev;
    const refused = await h.request("POST", `/v1/${shared}/notes/${note.id}/_restore`, { body: { rev: first }, key: viewer.key });
    expect(refused.status).toBe(403);
    expect((await h.request("GET", `/v1/${shared}/notes/${note.id}`, { key: viewer.key })).body.title).toBe("second");
    const allowed = await h.request("POST", `/v1/${shared}/notes/${note.id}/_restore`, { body: { rev: first }, key: editorDashboard.body.key });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.title).toBe("first");
    const latest = (await h.request("GET", `/v1/${shared}/notes/${note.id}/_history`, { key: viewer.key })).body[0];
    expect(latest.actor).toEqual({ kind: "member", id: editor.accountId });
  });

  describe("read rules for JWT users", () => {
    let f: Fixture;
    const userHistory = (id: number, token: string) => h.request("GET", `/v1/${f.db}/notes/${id}/_history`, bearer(token));

    beforeAll(async () => {
      f = await makeFixture(h, "historysec");
    }, 30_000);

    it("a JWT user's change has the user as actor; restore follows its policies", async () => {
      const id = f.notes.a1;
      const edit = await h.request("PATCH", `/v1/${f.db}/notes/${id}`, { body: { title: "alpha edited" }, ...bearer(f.userA.token) });
      expect(edit.status, edit.text).toBe(200);
      const mine = await userHistory(id, f.userA.token);
      expect(mine.status, mine.text).toBe(200);
      expect(mine.body[0]).toMatchObject({ action: "update", changed: ["title"], actor: { kind: "user", id: f.userA.id } });
      const back = await h.request("POST", `/v1/${f.db}/notes/${id}/_restore`, { body: { rev: mine.body[1].rev }, ...bearer(f.userA.token) });
      expect(back.status, back.text).toBe(200);
      expect(back.body.title).toBe("alpha one");
      const theirs = await h.request("POST", `/v1/${f.db}/notes/${f.notes.bp}/_restore`, { body: { rev: 1 }, ...bearer(f.userA.token) });
      expect(theirs.status).toBe(422); // B's public note: A may not update it, and rev 1 is not one of its revisions
    });

    it("should allow a visible row (own, public) and refuse a hidden one with 404", async () => {
      expect((await userHistory(f.notes.a1, f.userA.token)).status).toBe(200);
      expect((await userHistory(f.notes.bp, f.userA.token)).status).toBe(200);
      expect((await userHistory(f.notes.b1, f.userA.token)).status).toBe(404);
      expect((await userHistory(f.notes.a2, f.userB.token)).status).toBe(404);
    });

    it("a deleted row's history: keys 200, JWT users 404", async () => {
      const id = f.notes.a3;
      expect((await h.request("DELETE", `/v1/${f.db}/notes/${id}`, bearer(f.userA.token))).status).toBe(204);
      expect((await userHistory(id, f.userA.token)).status).toBe(404);
      const byKey = await h.request("GET", `/v1/${f.db}/notes/${id}/_history`);
      expect(byKey.status).toBe(200);
      expect(byKey.body[0].action).toBe("delete");
      expect((await h.request("GET", `/v1/${f.db}/notes/_deleted`, bearer(f.userA.token))).status).toBe(403);
    });

    it("a private row made public shows others its public revisions only, with no diff against the private one", async () => {
      const id = f.notes.a2;
      expect((await h.request("PATCH", `/v1/${f.db}/notes/${id}`, { body: { public: true }, ...bearer(f.userA.token) })).status).toBe(200);
      const seen = await userHistory(id, f.userB.token);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body[0].record.public).toBe(true);
      expect(seen.body[0].changed).toContain("title"); // every column, as for a create
      expect(seen.body.at(-1)).toMatchObject({ action: "insert", record: null, changed: [] });
      const own = await userHistory(id, f.userA.token);
      expect(own.body[0].changed).toEqual(["public"]);
    });
  });
});
