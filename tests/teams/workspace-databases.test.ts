// Databases of a workspace: an editor or admin creates them in the owner's workspace (owned by the owner,
// counted against the owner's plan, the member recorded as creator); "Shared with me" lists them with owner,
// creator and role; `creator=` and `workspace=` filter. Viewers and non-members are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, accept, addMember, error, invite, newAccount, outcome, removeMember, setRole } from "./team-fixture";

type Summary = { instance: string; name: string; owner_id: number; owner: { id: number; email: string }; creator: { id: number; email: string }; role: string };

const person = (a: Account) => ({ id: a.accountId, email: a.email });

describe.each(ENGINES)("workspace databases on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => h?.close());

  const create = (key: string, name: string, workspace?: number) =>
    h.request("POST", "/api/v1/databases", { key, body: workspace === undefined ? { name } : { name, workspace } });
  const list = async (key: string, query = "") => {
    const reply = await h.request("GET", `/api/v1/databases${query}`, { key });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as Summary[];
  };
  const names = (dbs: Summary[]) => dbs.map((d) => d.name);

  /** An owner with an editor, a viewer and an admin (invited on the team plan), one database of its own. */
  const workspace = async () => {
    const owner = await newAccount(h, "team");
    const editor = await addMember(h, owner, "editor");
    const viewer = await addMember(h, owner, "viewer");
    const admin = await addMember(h, owner, "admin");
    expect((await create(owner.key, "Owner's own")).status).toBe(201);
    return { owner, editor, viewer, admin };
  };

  it("lets an editor create a database in the owner's workspace: the owner owns it, the editor is its creator", async () => {
    const { owner, editor } = await workspace();
    const made = await create(editor.key, "By the editor", owner.accountId);
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ name: "By the editor", owner_id: owner.accountId, owner: person(owner), creator: person(editor), role: "editor" });
    const seen = (await list(owner.key)).find((d) => d.instance === made.body.instance);
    expect(seen).toMatchObject({ owner: person(owner), creator: person(editor), role: "owner" });
    // It is the owner's, not the editor's: the editor's own workspace stays empty.
    expect(await list(editor.key)).toEqual([]);
    // The editor reaches it through its data API like any of the owner's databases.
    expect((await h.request("GET", `/v1/${made.body.instance}/openapi.json`, { key: editor.key })).status).toBe(200);
  });

  it("lets an admin create one too", async () => {
    const { owner, admin } = await workspace();
    const made = await create(admin.key, "By the admin", owner.accountId);
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ owner: person(owner), creator: person(admin), role: "admin" });
  });

  it("counts a member's databases against the owner's plan (free: 2), not the member's", async () => {
    const { owner, editor } = await workspace();
    // Invited on team, then moved to free: the members stay, the database limit is now 2 (one is used).
    expect((await h.request("PATCH", `/api/v1/accounts/${owner.accountId}`, { body: { plan: "free" } })).status).toBe(200);
    expect((await create(editor.key, "Second", owner.accountId)).status).toBe(201);
    expect(outcome(await create(editor.key, "Third", owner.accountId))).toEqual(
      error(
        402,
        "quota_exceeded",
        "Your free plan allows 2 databases and this account has 2. Delete a database, add a database credit, or ask the operator of this install for a larger plan. There is room in your own workspace: create it there.",
        { quota: { kind: "databases", limit: 2, used: 2, credits: 0 }, workspace_with_room: { id: editor.accountId, owner: editor.email } },
      ),
    );
    // The owner has no other workspace: the 402 names none.
    const full = await create(owner.key, "Owner's third");
    expect(full.status).toBe(402);
    expect(full.body.workspace_with_room).toBeUndefined();
    expect(full.body.message).not.toContain("There is room");
    expect(names(await list(owner.key))).toEqual(["Owner's own", "Second"]);
    // The editor's own free plan is untouched.
    expect((await create(editor.key, "Editor's own")).status).toBe(201);
    const usage = await h.request("GET", "/api/v1/account", { key: owner.key });
    expect(usage.body.usage.databases).toBe(2);
  });

  it("names a workspace with room in a database 402: one where the caller is an editor or admin, never one where it is a viewer", async () => {
    const { owner, editor } = await workspace();
    // The editor's own workspace is full (free: 2); the owner's (team) has room.
    expect((await create(editor.key, "Editor one")).status).toBe(201);
    expect((await create(editor.key, "Editor two")).status).toBe(201);
    const reply = await create(editor.key, "Editor three");
    expect(reply.status).toBe(402);
    expect(reply.body.workspace_with_room).toEqual({ id: owner.accountId, owner: owner.email });
    expect(reply.body.message).toContain(`There is room in ${owner.email}’s workspace, where you are an editor: create it there.`);
    expect((await create(editor.key, "Editor three", reply.body.workspace_with_room.id)).status).toBe(201);
    // A viewer of a workspace with room, whose own is full, is named none: it could not create there.
    const roomy = await newAccount(h, "team");
    const viewer = await newAccount(h);
    expect((await accept(h, viewer.key, (await invite(h, roomy.key, { role: "viewer" })).token)).status).toBe(200);
    expect((await create(viewer.key, "Viewer one")).status).toBe(201);
    expect((await create(viewer.key, "Viewer two")).status).toBe(201);
    const refused = await create(viewer.key, "Viewer three");
    expect(refused.status).toBe(402);
    expect(refused.body.workspace_with_room).toBeUndefined();
  });

  it("refuses a viewer creating in the workspace with 403, and creates nothing", async () => {
    const { owner, viewer } = await workspace();
    expect(outcome(await create(viewer.key, "By a viewer", owner.accountId))).toEqual(error(403, "forbidden", REFUSALS.workspaceRoleLacks("workspace:write")));
    expect(names(await list(owner.key))).toEqual(["Owner's own"]);
  });

  it("refuses a non-member naming the workspace with 404, as for a workspace that does not exist", async () => {
    const { owner } = await workspace();
    const outsider = await newAccount(h);
    expect(outcome(await create(outsider.key, "Intruder", owner.accountId))).toEqual(error(404, "not_found", REFUSALS.workspaceNotFound(owner.accountId)));
    expect(outcome(await create(outsider.key, "Nowhere", 99_999_999))).toEqual(error(404, "not_found", REFUSALS.workspaceNotFound(99_999_999)));
    expect(names(await list(owner.key))).toEqual(["Owner's own"]);
    expect(await list(outsider.key, "?scope=all")).toEqual([]);
  });

  it("refuses a workspace that is not an account id with 422", async () => {
    const { owner, editor } = await workspace();
    const bad = await h.request("POST", "/api/v1/databases", { key: editor.key, body: { name: "Bad", workspace: "someone" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: "workspace", code: "invalid_value", message: "workspace must be the owner's account id" }]);
    expect(names(await list(owner.key))).toEqual(["Owner's own"]);
  });

  it("lists the owner's databases as shared with a member, with owner, creator and role; mine and all as named", async () => {
    const { owner, editor, viewer } = await workspace();
    await create(editor.key, "Made by editor", owner.accountId);
    await create(viewer.key, "Viewer's own");
    const shared = await list(viewer.key, "?scope=shared");
    expect(shared.map((d) => ({ name: d.name, owner: d.owner, creator: d.creator, role: d.role }))).toEqual([
      { name: "Owner's own", owner: person(owner), creator: person(owner), role: "viewer" },
      { name: "Made by editor", owner: person(owner), creator: person(editor), role: "viewer" },
    ]);
    expect(names(await list(viewer.key))).toEqual(["Viewer's own"]);
    expect(names(await list(viewer.key, "?scope=mine"))).toEqual(["Viewer's own"]);
    expect(names(await list(viewer.key, "?scope=all"))).toEqual(["Owner's own", "Made by editor", "Viewer's own"]);
    expect(await list(owner.key, "?scope=shared")).toEqual([]);
  });

  it("filters by creator and by workspace", async () => {
    const { owner, editor, admin } = await workspace();
    await create(editor.key, "Editor one", owner.accountId);
    await create(admin.key, "Admin one", owner.accountId);
    await create(editor.key, "Editor's own");
    expect(names(await list(owner.key, `?creator=${editor.accountId}`))).toEqual(["Editor one"]);
    expect(names(await list(owner.key, `?creator=${owner.accountId}`))).toEqual(["Owner's own"]);
    expect(names(await list(editor.key, `?scope=all&creator=${editor.accountId}`))).toEqual(["Editor one", "Editor's own"]);
    expect(names(await list(editor.key, `?scope=all&workspace=${owner.accountId}`))).toEqual(["Owner's own", "Editor one", "Admin one"]);
    expect(names(await list(editor.key, `?scope=all&workspace=${editor.accountId}`))).toEqual(["Editor's own"]);
    expect(names(await list(editor.key, `?scope=shared&workspace=${owner.accountId}&creator=${admin.accountId}`))).toEqual(["Admin one"]);
    // A workspace the caller is not in lists nothing rather than its databases.
    expect(await list(admin.key, `?scope=all&workspace=${editor.accountId}`)).toEqual([]);
  });

  it("refuses creating in the workspace at the next request once an editor is lowered to viewer or removed", async () => {
    const { owner, editor } = await workspace();
    expect((await create(editor.key, "Before", owner.accountId)).status).toBe(201);
    expect((await setRole(h, owner, editor, "viewer")).status).toBe(200);
    expect(outcome(await create(editor.key, "Lowered", owner.accountId))).toEqual(error(403, "forbidden", REFUSALS.workspaceRoleLacks("workspace:write")));
    expect((await removeMember(h, owner, editor)).status).toBe(204);
    expect(outcome(await create(editor.key, "Removed", owner.accountId))).toEqual(error(404, "not_found", REFUSALS.workspaceNotFound(owner.accountId)));
    expect(await list(editor.key, "?scope=shared")).toEqual([]);
    // What it created stays the owner's, still naming it as creator.
    expect((await list(owner.key)).find((d) => d.name === "Before")).toMatchObject({ owner: person(owner), creator: person(editor) });
  });
});
