// A member's keys on the owner's databases: a viewer reads and is refused writes, an editor or admin writes,
// an account that is not (or no longer) a member is 401. Role changes and removals hold from the member's
// next request, on the data and management APIs, and in another process of the same install.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { ENGINES, type Harness, type Reply, startHarness } from "../helpers/harness";
import { type ChildServer, startChildServer } from "../limits/limits-fixture";
import { type Account, accept, addMember, error, invite, newAccount, outcome, removeMember, setRole } from "./team-fixture";

const VIEWER_WRITES = error(403, "forbidden", "This key's account is a viewer of this database: it may read, not write.");
const NOT_FOR_THIS_DATABASE = error(401, "unauthorized", "This key is not valid for this database.");

describe.each(ENGINES)("member access on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let instance: string;
  let seeded: { id: number; label: string };

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    const db = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Team data", tables: [{ name: "items", columns: [{ name: "label", type: "varchar" }] }] } });
    expect(db.status, db.text).toBe(201);
    instance = db.body.instance;
    const row = await h.request("POST", `/v1/${instance}/items`, { key: owner.key, body: { label: "seeded" } });
    expect(row.status, row.text).toBe(201);
    seeded = row.body;
  }, 60_000);
  afterAll(async () => h?.close());

  const items = (key: string, method = "GET", body?: unknown, id?: number) => h.request(method, `/v1/${instance}/items${id === undefined ? "" : `/${id}`}`, { key, body });
  const labels = async () => ((await items(owner.key)).body as { label: string }[]).map((r) => r.label).sort();

  /** Every kind of write of the data API, each on a row of its own (made by the owner). */
  const WRITES = [
    { verb: "POST", status: 201, send: (key: string) => items(key, "POST", { label: "made" }) },
    { verb: "PATCH", status: 200, send: async (key: string, id: number) => items(key, "PATCH", { label: "patched" }, id) },
    { verb: "PUT", status: 200, send: async (key: string, id: number) => items(key, "PUT", { label: "replaced" }, id) },
    { verb: "DELETE", status: 204, send: async (key: string, id: number) => items(key, "DELETE", undefined, id) },
  ];

  const ownerRow = async (label: string) => (await items(owner.key, "POST", { label })).body.id as number;

  describe("data API", () => {
    it("lets a viewer's account key read the owner's database", async () => {
      const viewer = await addMember(h, owner, "viewer");
      const list = await items(viewer.key);
      expect(list.status, list.text).toBe(200);
      expect(list.body).toContainEqual(seeded);
      expect(outcome(await items(viewer.key, "GET", undefined, seeded.id))).toEqual({ status: 200, body: seeded });
    });

    it.each(WRITES)("refuses a viewer's $verb with 403 and changes nothing", async ({ send }) => {
      const viewer = await addMember(h, owner, "viewer");
      const id = await ownerRow("untouched");
      const before = await labels();
      expect(outcome(await send(viewer.key, id))).toEqual(VIEWER_WRITES);
      expect(await labels()).toEqual(before);
    });

    it.each(["editor", "admin"])("lets an %s's account key make every kind of write", async (role) => {
      const member = await addMember(h, owner, role);
      for (const { verb, status, send } of WRITES) {
        const reply = await send(member.key, await ownerRow(`for ${verb}`));
        expect(reply.status, `${verb}: ${reply.text}`).toBe(status);
      }
    });

    it("answers 401 to an account that is not a member, and 200 to the same key once it accepts an invite", async () => {
      const outsider = await newAccount(h);
      expect(outcome(await items(outsider.key))).toEqual(NOT_FOR_THIS_DATABASE);
      expect(outcome(await items(outsider.key, "POST", { label: "intruder" }))).toEqual(NOT_FOR_THIS_DATABASE);
      const { token } = await invite(h, owner.key, { role: "viewer" });
      expect((await accept(h, outsider.key, token)).status).toBe(200);
      expect((await items(outsider.key)).status).toBe(200);
    });

    it("answers 401 to a removed member at its next request, while its own databases and other members keep working", async () => {
      const removed = await addMember(h, owner, "editor");
      const stays = await addMember(h, owner, "editor");
      expect((await items(removed.key)).status).toBe(200);
      const own = await h.request("POST", "/api/v1/databases", { key: removed.key, body: { name: "Mine", tables: [{ name: "notes", columns: [{ name: "t", type: "text" }] }] } });
      expect(own.status, own.text).toBe(201);
      expect((await removeMember(h, owner, removed)).status).toBe(204);
      expect(outcome(await items(removed.key))).toEqual(NOT_FOR_THIS_DATABASE);
      expect(outcome(await items(removed.key, "POST", { label: "after removal" }))).toEqual(NOT_FOR_THIS_DATABASE);
      expect((await h.request("GET", `/v1/${own.body.instance}/notes`, { key: removed.key })).status).toBe(200);
      expect((await items(stays.key, "POST", { label: "still here" })).status).toBe(201);
    });

    it("refuses an editor's next write once lowered to viewer, and allows the next once raised again", async () => {
      const member = await addMember(h, owner, "editor");
      expect((await items(member.key, "POST", { label: "as editor" })).status).toBe(201);
      expect((await setRole(h, owner, member, "viewer")).status).toBe(200);
      expect(outcome(await items(member.key, "POST", { label: "as viewer" }))).toEqual(VIEWER_WRITES);
      expect((await items(member.key)).status).toBe(200);
      expect((await setRole(h, owner, member, "editor")).status).toBe(200);
      expect((await items(member.key, "POST", { label: "editor again" })).status).toBe(201);
    });

    it("gives a member's key limited to one of the owner's databases the member's role, and 401 after removal", async () => {
      // Only an admin may create a key for a shared database; lowered to viewer, the key acts as a viewer.
      const viewer = await addMember(h, owner, "admin");
      const made = await h.request("POST", "/api/v1/keys", { key: viewer.key, body: { name: "one db", database: instance } });
      expect(made.status, made.text).toBe(201);
      expect((await setRole(h, owner, viewer, "viewer")).status).toBe(200);
      const scoped = made.body.key as string;
      expect((await items(scoped)).status).toBe(200);
      expect(outcome(await items(scoped, "POST", { label: "scoped" }))).toEqual(VIEWER_WRITES);
      expect((await removeMember(h, owner, viewer)).status).toBe(204);
      expect(outcome(await items(scoped))).toEqual(NOT_FOR_THIS_DATABASE);
    });
  });

  describe("management API", () => {
    const rename = (key: string, name: string) => h.request("PATCH", `/api/v1/databases/${instance}`, { key, body: { name } });

    it("refuses an editor lowered to viewer on its next schema change, and still lets it read", async () => {
      const member = await addMember(h, owner, "editor");
      expect((await rename(member.key, "Team data")).status).toBe(200);
      expect((await setRole(h, owner, member, "viewer")).status).toBe(200);
      expect(outcome(await rename(member.key, "Renamed by a viewer"))).toEqual(error(403, "forbidden", REFUSALS.roleLacks("database:write")));
      const read = await h.request("GET", `/api/v1/databases/${instance}`, { key: member.key });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ name: "Team data", role: "viewer" });
    });

    it("answers 404 to a removed member at its next request, on the database and on the workspace", async () => {
      const member = await addMember(h, owner, "admin");
      expect((await h.request("GET", `/api/v1/databases/${instance}`, { key: member.key })).status).toBe(200);
      expect((await h.request("GET", `/api/v1/team/members?workspace=${owner.accountId}`, { key: member.key })).status).toBe(200);
      expect((await removeMember(h, owner, member)).status).toBe(204);
      expect(outcome(await h.request("GET", `/api/v1/databases/${instance}`, { key: member.key }))).toEqual(error(404, "not_found", REFUSALS.databaseNotFound(instance)));
      expect(outcome(await h.request("GET", `/api/v1/team/members?workspace=${owner.accountId}`, { key: member.key }))).toEqual(
        error(404, "not_found", REFUSALS.workspaceNotFound(owner.accountId)),
      );
      expect((await h.request("GET", "/api/v1/databases?scope=shared", { key: member.key })).body).toEqual([]);
      expect((await h.request("GET", "/api/v1/team/workspaces", { key: member.key })).body).toEqual([]);
    });
  });

  describe("across two processes", () => {
    let child: ChildServer;

    beforeAll(async () => {
      child = await startChildServer(h);
    }, 30_000);
    afterAll(async () => child?.stop());

    /** The data API of the other process (the harness's own is this process). */
    const elsewhere = async (method: string, key: string, body?: unknown): Promise<Reply> => {
      const response = await fetch(`${child.base}/v1/${instance}/items`, {
        method,
        headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
    };

    it("holds a role change and a removal made in one process at the other's next request", async () => {
      const member = await addMember(h, owner, "editor");
      // The other process caches the member's role on these requests.
      expect((await elsewhere("GET", member.key)).status).toBe(200);
      expect((await elsewhere("POST", member.key, { label: "from the other process" })).status).toBe(201);
      expect((await setRole(h, owner, member, "viewer")).status).toBe(200);
      expect(outcome(await elsewhere("POST", member.key, { label: "lowered" }))).toEqual(VIEWER_WRITES);
      expect((await elsewhere("GET", member.key)).status).toBe(200);
      expect((await removeMember(h, owner, member)).status).toBe(204);
      expect(outcome(await elsewhere("GET", member.key))).toEqual(NOT_FOR_THIS_DATABASE);
    });

    it("lets a new member in at the other process's next request after a 401 there", async () => {
      const outsider = await newAccount(h);
      expect(outcome(await elsewhere("GET", outsider.key))).toEqual(NOT_FOR_THIS_DATABASE);
      const { token } = await invite(h, owner.key, { role: "editor" });
      expect((await accept(h, outsider.key, token)).status).toBe(200);
      expect((await elsewhere("POST", outsider.key, { label: "joined" })).status).toBe(201);
    });
  });
});
