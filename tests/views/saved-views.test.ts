// Saved views through the management API on each engine: shared views are seen by every member, private ones
// by their creator only; sharing needs write; changing someone else's shared view needs admin. Refusals store nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHERS_VIEW_REFUSED, SHARE_REFUSED } from "../../lib/services/views/saved-view";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, addMember, newAccount, outcome } from "../teams/team-fixture";

const TABLES = [{ name: "books", columns: [{ name: "title", type: "varchar" }, { name: "price", type: "decimal" }, { name: "notes", type: "text" }] }];

describe.each(ENGINES)("saved views on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let viewer: Account;
  let editor: Account;
  let otherEditor: Account;
  let admin: Account;
  let instance = "";
  const path = (table = "books", id?: number) => `/api/v1/databases/${instance}/tables/${table}/views${id === undefined ? "" : `/${id}`}`;
  const create = (who: Account, body: Record<string, unknown>, table?: string) => h.request("POST", path(table), { key: who.key, body });
  const names = async (who: Account, table?: string) => ((await h.request("GET", path(table), { key: who.key })).body as { name: string }[]).map((v) => v.name);

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    const db = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Views", tables: TABLES } });
    expect(db.status, db.text).toBe(201);
    instance = db.body.instance;
    viewer = await addMember(h, owner, "viewer");
    editor = await addMember(h, owner, "editor");
    otherEditor = await addMember(h, owner, "editor");
    admin = await addMember(h, owner, "admin");
  }, 60_000);
  afterAll(async () => h?.close());

  it("saves a view with its query and hidden columns and answers it whole", async () => {
    const reply = await create(owner, { name: "Cheap first", query: "?price_lt=10&_sort=price&_limit=25", hidden_columns: ["notes", "notes"], shared: true });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ name: "Cheap first", query: "price_lt=10&_sort=price&_limit=25", hidden_columns: ["notes"], shared: true, created_by: owner.accountId, mine: true });
  });

  it("shows shared views to every member and private ones to their creator only", async () => {
    expect((await create(viewer, { name: "Viewer's own" })).status).toBe(201);
    expect((await create(editor, { name: "Editor's shared", shared: true })).status).toBe(201);
    expect(await names(viewer)).toEqual(expect.arrayContaining(["Cheap first", "Editor's shared", "Viewer's own"]));
    expect(await names(editor)).not.toContain("Viewer's own");
    expect(await names(owner)).not.toContain("Viewer's own");
  });

  it("refuses a viewer's shared view (403) and stores nothing; allows it private", async () => {
    const before = await names(owner);
    expect(outcome(await create(viewer, { name: "Try to share", shared: true }))).toEqual({ status: 403, body: { error: "forbidden", message: SHARE_REFUSED } });
    expect(await names(owner)).toEqual(before);
    expect((await create(viewer, { name: "Kept private", shared: false })).status).toBe(201);
  });

  it("lets the creator change a shared view, refuses another editor, allows an admin", async () => {
    const view = (await create(editor, { name: "Team view", shared: true })).body;
    expect((await h.request("PATCH", path("books", view.id), { key: editor.key, body: { query: "_sort=-id" } })).status).toBe(200);
    expect(outcome(await h.request("PATCH", path("books", view.id), { key: otherEditor.key, body: { name: "Hijacked" } }))).toEqual({ status: 403, body: { error: "forbidden", message: OTHERS_VIEW_REFUSED } });
    expect(outcome(await h.request("DELETE", path("books", view.id), { key: viewer.key }))).toEqual({ status: 403, body: { error: "forbidden", message: OTHERS_VIEW_REFUSED } });
    expect(await names(owner)).toContain("Team view");
    const renamed = await h.request("PATCH", path("books", view.id), { key: admin.key, body: { name: "Renamed by admin" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Renamed by admin", query: "_sort=-id", mine: false });
    expect((await h.request("DELETE", path("books", view.id), { key: admin.key })).status).toBe(204);
    expect(await names(editor)).not.toContain("Renamed by admin");
  });

  it("answers 404 for someone else's private view, as for one that does not exist", async () => {
    const own = (await create(editor, { name: "Editor private" })).body;
    const hidden = await h.request("PATCH", path("books", own.id), { key: admin.key, body: { name: "Seen" } });
    expect(hidden.status).toBe(404);
    expect((await h.request("DELETE", path("books", own.id), { key: owner.key })).status).toBe(404);
    expect((await h.request("DELETE", path("books", 999999), { key: owner.key })).status).toBe(404);
    expect(await names(editor)).toContain("Editor private");
  });

  it("checks the query and hidden columns against the table (422 naming the field)", async () => {
    const bad = await create(owner, { name: "Bad", query: "nope_eq=1&_limit=5000", hidden_columns: ["title", "ghost"] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ["query", "unknown_column"],
      ["query", "out_of_range"],
      ["hidden_columns[1]", "unknown_column"],
    ]);
    expect(await names(owner)).not.toContain("Bad");
    const badGroup = await create(owner, { name: "Bad group", query: `_or=${encodeURIComponent("title=a&ghost=1")}` });
    expect(badGroup.status).toBe(422);
    expect(badGroup.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([["query", "unknown_column"]]);
    const group = `_or=${encodeURIComponent("price_lt=10&title_ilike=sale")}&_sort=price`;
    const saved = await create(owner, { name: "Cheap or on sale", query: group });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.query).toBe(group);
    expect((await create(owner, { name: "" })).status).toBe(422);
  });

  it("keeps views when the table is renamed and removes them with the table", async () => {
    const made = await h.request("POST", `/api/v1/databases/${instance}/tables`, { key: owner.key, body: { name: "drafts", columns: [{ name: "body", type: "text" }] } });
    expect(made.status, made.text).toBe(201);
    expect((await create(owner, { name: "Draft view", shared: true }, "drafts")).status).toBe(201);
    const renamed = await h.request("PATCH", `/api/v1/databases/${instance}/tables/drafts`, { key: owner.key, body: { name: "notes_drafts" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await names(owner, "notes_drafts")).toEqual(["Draft view"]);
    expect((await h.request("DELETE", `/api/v1/databases/${instance}/tables/notes_drafts`, { key: owner.key })).status).toBe(204);
    const left = await h.app.engine.meta.selectFrom("saved_views").select("name").where("name", "=", "Draft view").execute();
    expect(left).toEqual([]);
  });
});
