// Row policies on the feed, in allowed/refused pairs per caller kind: a key sees every row; a JWT user the
// rows its select policy allows (inserts and updates judged on the new row, deletes on the old); a table
// without a select policy is 403; joins have no events; password columns never appear.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Fixture, makeFixture } from "../security/security-fixture";
import { type Feed, openFeed } from "./feed-client";

describe.each(ENGINES)("feed row policies on %s", (engine) => {
  let h: Harness;
  let f: Fixture;
  const feeds: Feed[] = [];
  const open = async (path: string, headers: Record<string, string>) => {
    const feed = await openFeed(h, `/v1/${f.db}${path}`, headers);
    feeds.push(feed);
    if (feed.status === 200) await feed.waitFor(1, (fr) => fr.event === undefined && fr.comment === undefined);
    return feed;
  };
  const asKey = () => ({ "x-api-key": h.accountKey });
  const asUser = (token: string) => ({ authorization: `Bearer ${token}` });
  const note = (owner: number, title: string, isPublic = false) => h.request("POST", `/v1/${f.db}/notes`, { body: { title, owner_id: owner, public: isPublic } });

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), pollMs: 100 } } });
    f = await makeFixture(h, "feedrls");
    const join = await h.request("POST", `/api/v1/databases/${f.db}/joins`, {
      body: { name: "notes_with_users", base: "notes", joins: [{ table: "users", on: [["notes.owner_id", "users.id"]] }], columns: [{ column: "notes.title", as: "title" }, { column: "users.email", as: "email" }] },
    });
    expect(join.status, join.text).toBe(201);
  }, 60_000);
  afterAll(async () => {
    for (const feed of feeds) feed.close();
    await h?.close();
  });

  it("key: should see every note, private ones of both users included", async () => {
    const feed = await open("/_changes?tables=notes", asKey());
    await note(f.userA.id, "key sees A private");
    await note(f.userB.id, "key sees B private");
    expect((await feed.waitFor(2)).map((e) => e.data.record.title)).toEqual(["key sees A private", "key sees B private"]);
  });

  it("JWT user: should see own and public rows, should not see another user's private rows", async () => {
    const feed = await open("/_changes?tables=notes", asUser(f.userA.token));
    await note(f.userB.id, "B private: hidden from A");
    await note(f.userA.id, "A private: shown to A");
    await note(f.userB.id, "B public: shown to A", true);
    const events = await feed.waitFor(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(feed.events().map((e) => e.data.record.title)).toEqual(["A private: shown to A", "B public: shown to A"]);
    expect(events.length).toBe(2);
  });

  it("JWT user: an update is judged on the new row, a delete on the old one", async () => {
    const pub = (await note(f.userB.id, "B public then private", true)).body;
    const feed = await open("/_changes?tables=notes", asUser(f.userA.token));
    await h.request("PATCH", `/v1/${f.db}/notes/${pub.id}`, { body: { public: false } }); // hidden now: no event for A
    await h.request("PATCH", `/v1/${f.db}/notes/${pub.id}`, { body: { public: true, title: "B public again" } }); // shown
    await h.request("DELETE", `/v1/${f.db}/notes/${pub.id}`); // the old row was public: shown
    const hidden = (await note(f.userB.id, "B private to delete")).body;
    await h.request("DELETE", `/v1/${f.db}/notes/${hidden.id}`); // the old row was private to B: hidden
    await note(f.userA.id, "marker");
    const events = await feed.waitFor(3);
    expect(events.map((e) => [e.event, e.data.record.title])).toEqual([["update", "B public again"], ["delete", "B public again"], ["insert", "marker"]]);
  });

  it("a table without a select policy: should refuse a JWT user (403), should allow a key (200)", async () => {
    const user = await open("/_changes?tables=secrets", asUser(f.userA.token));
    expect(user.status).toBe(403);
    const key = await open("/_changes?tables=secrets", asKey());
    expect(key.status).toBe(200);
  });

  it("joins are excluded: naming one is 422 for keys and users alike", async () => {
    for (const headers of [asKey(), asUser(f.userA.token)]) {
      const reply = await h.request("GET", `/v1/${f.db}/_changes?tables=notes_with_users`, { headers, key: null });
      expect(reply.status).toBe(422);
      expect(reply.body.errors[0]).toMatchObject({ field: "tables", code: "join" });
    }
  });

  it("password columns never appear, for keys and users", async () => {
    const keyFeed = await open("/_changes?tables=users", asKey());
    const userFeed = await open("/_changes?tables=users", asUser(f.userA.token));
    await h.request("PATCH", `/v1/${f.db}/users/${f.userA.id}`, { body: { display_name: "Alpha 2" } });
    const [byKey] = await keyFeed.waitFor(1);
    const [byUser] = await userFeed.waitFor(1);
    for (const e of [byKey, byUser]) {
      expect(e.data.record.display_name).toBe("Alpha 2");
      expect(Object.keys(e.data.record)).not.toContain("password");
      expect(Object.keys(e.data.old_record)).not.toContain("password");
    }
  });

  it("a user whose token another database issued: should be refused (401)", async () => {
    const other = await makeFixture(h, "feedrls2");
    expect((await open("/_changes?tables=notes", asUser(other.userA.token))).status).toBe(401);
  });
});
