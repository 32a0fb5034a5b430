// The RLS matrix: {anonymous, user A, user B, secret key} × {select, insert, update, delete} × {list, by id,
// filtered list, sorted list}, each a should-allow / should-block pair, on every engine (node adapter; the
// route adapter shares the core, and the JWT suite runs through it).
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness } from "../helpers/harness";
import { expect401, expectError, qs, useHarness } from "../contract/contract-helpers";
import { bearer, type Fixture, makeFixture } from "./security-fixture";

type Who = "anonymous" | "user A" | "user B" | "secret key";
const CALLERS: Who[] = ["anonymous", "user A", "user B", "secret key"];

describe.each(ENGINES)("RLS matrix on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let f: Fixture;
  const h = () => ctx.h as Harness;

  const as = (who: Who) => {
    if (who === "anonymous") return { key: null as null };
    if (who === "secret key") return {};
    return bearer(who === "user A" ? f.userA.token : f.userB.token);
  };
  const call = (who: Who, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const o = as(who) as { key?: null; headers?: Record<string, string> };
    return h().request(method, `/v1/${f.db}${path}`, { ...o, body, headers: { ...o.headers, ...headers } });
  };
  const byKey = async (path: string) => (await h().request("GET", `/v1/${f.db}${path}`)).body as any[];
  const userId = (who: Who) => (who === "user A" ? f.userA.id : f.userB.id);
  const other = (who: Who): Who => (who === "user A" ? "user B" : "user A");
  /** Labels a user may see: own rows and every public row. */
  const visibleTo = (who: Who) => {
    if (who === "secret key") return ["a1", "a2", "a3", "ap", "b1", "b2", "bp"];
    return who === "user A" ? ["a1", "a2", "a3", "ap", "bp"] : ["ap", "b1", "b2", "bp"];
  };
  const own = (who: Who) => (who === "user A" ? "a1" : "b1");
  const hidden = (who: Who) => (who === "user A" ? "b1" : "a1");
  const foreignPublic = (who: Who) => (who === "user A" ? "bp" : "ap");
  const ids = (labels: string[]) => labels.map((l) => f.notes[l]).sort((x, y) => x - y);
  /** A fresh note owned by `who` (made with the secret key), so write tests do not disturb each other. */
  const freshNote = async (owner: Who, extra: Record<string, unknown> = {}) => {
    const r = await h().request("POST", `/v1/${f.db}/notes`, { body: { title: `fresh ${Math.random()}`, owner_id: userId(owner), rank: 10, ...extra } });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: number; title: string };
  };

  beforeAll(async () => {
    f = await makeFixture(h(), `rls ${engine}`);
  });

  describe("anonymous: every data verb is refused with 401; the login path is open", () => {
    const paths: [string, string, unknown?][] = [
      ["GET", "/notes"],
      ["GET", "/notes/1"],
      ["GET", "/notes?title_like=alpha"],
      ["GET", "/notes?_sort=-rank"],
      ["POST", "/notes", { title: "x" }],
      ["PATCH", "/notes/1", { title: "x" }],
      ["PUT", "/notes/1", { title: "x" }],
      ["DELETE", "/notes/1"],
    ];
    it.each(paths)("should block %s %s", async (method, path, body) => {
      expect401(await call("anonymous", method, path, body));
    });
    it("should block a garbage bearer value, and leave the rows untouched", async () => {
      expect401(await h().request("DELETE", `/v1/${f.db}/notes/${f.notes.a1}`, { key: null, headers: { authorization: "Bearer not-a-token" } }));
      expect((await byKey("/notes")).length).toBe(7);
    });
    it("should allow POST /auth/login without any key", async () => {
      const r = await h().request("POST", `/v1/${f.db}/auth/login`, { key: null, body: { email: "a@example.com", password: "alpha-password-1" } });
      expect(r.status, r.text).toBe(200);
    });
  });

  describe.each(["user A", "user B", "secret key"] as Who[])("%s · select", (who) => {
    it("list: should allow exactly the visible rows", async () => {
      const r = await call(who, "GET", "/notes?_limit=1000", undefined, { prefer: "count=exact" });
      expect(r.status, r.text).toBe(200);
      expect(r.body.map((n: any) => n.id)).toEqual(ids(visibleTo(who)));
      expect(r.headers.get("x-total-count")).toBe(String(visibleTo(who).length));
    });
    it("list: should block rows of the other user (none of them appears, counts agree)", async () => {
      if (who === "secret key") return expect((await call(who, "GET", "/notes")).body.length).toBe(7);
      const r = await call(who, "GET", "/notes");
      const seen = new Set(r.body.map((n: any) => n.id));
      expect(seen.has(f.notes[hidden(who)])).toBe(false);
      expect(r.body.every((n: any) => n.public === true || n.owner_id === userId(who))).toBe(true);
    });
    it("by id: should allow an own row and a public row", async () => {
      for (const label of who === "secret key" ? ["a1", "b1"] : [own(who), foreignPublic(who)]) {
        const r = await call(who, "GET", `/notes/${f.notes[label]}`);
        expect(r.status, r.text).toBe(200);
        expect(r.body.id).toBe(f.notes[label]);
      }
    });
    it("by id: should block a hidden row with the same 404 as a missing one", async () => {
      if (who === "secret key") return expectError(await call(who, "GET", "/notes/999999"), 404, "not_found");
      const hiddenReply = await call(who, "GET", `/notes/${f.notes[hidden(who)]}`);
      const missing = await call(who, "GET", "/notes/999999");
      expectError(hiddenReply, 404, "not_found");
      expect(hiddenReply.body.message.replace(/\d+/g, "N")).toBe(missing.body.message.replace(/\d+/g, "N"));
    });
    it("filtered list: should allow a filter over visible rows", async () => {
      const r = await call(who, "GET", `/notes?${qs({ title_like: "public" })}`);
      expect(r.body.map((n: any) => n.id)).toEqual(ids(["ap", "bp"]));
    });
    it("filtered list: should block filters aimed at hidden rows (no match, count 0)", async () => {
      const target = who === "secret key" ? "b1" : hidden(who);
      const targetTitle = target === "b1" ? "bravo one secret" : "alpha one";
      const probes: Record<string, string | number>[] = [
        { title: targetTitle },
        { title_like: targetTitle.slice(0, 8) },
        { id: f.notes[target] },
        { body_ilike: `${target} BODY` },
        { rank: target === "b1" ? 4 : 3 },
      ];
      for (const q of probes) {
        const r = await call(who, "GET", `/notes?${qs(q)}`, undefined, { prefer: "count=exact" });
        expect(r.status, r.text).toBe(200);
        const expected = who === "secret key" ? 1 : r.body.filter((n: any) => n.id === f.notes[target]).length;
        expect(r.body.some((n: any) => n.id === f.notes[target])).toBe(who === "secret key");
        expect(expected).toBe(who === "secret key" ? 1 : 0);
        expect(r.headers.get("x-total-count")).toBe(String(r.body.length));
      }
    });
    it("sorted list: should allow sorting the visible rows (order of the visible set)", async () => {
      const all = await byKey("/notes?_limit=1000");
      const visible = all.filter((n) => ids(visibleTo(who)).includes(n.id)).sort((x, y) => y.rank - x.rank);
      const r = await call(who, "GET", "/notes?_sort=-rank");
      expect(r.body.map((n: any) => n.id)).toEqual(visible.map((n) => n.id));
    });
    it("sorted list: should block hidden rows from pages and offsets (page k is the visible set's page k)", async () => {
      const all = await byKey("/notes?_limit=1000");
      const visible = all.filter((n) => ids(visibleTo(who)).includes(n.id)).sort((x, y) => x.title.localeCompare(y.title) || x.id - y.id);
      for (let offset = 0; offset < 8; offset += 2) {
        const r = await call(who, "GET", `/notes?_sort=title&_limit=2&_offset=${offset}`, undefined, { prefer: "count=exact" });
        expect(r.body.map((n: any) => n.id)).toEqual(visible.slice(offset, offset + 2).map((n) => n.id));
        expect(r.headers.get("x-total-count")).toBe(String(visible.length));
      }
    });
  });

  describe.each(["user A", "user B"] as Who[])("%s · insert", (who) => {
    it("list: should allow an insert that fills owner_id from auth.id", async () => {
      const r = await call(who, "POST", "/notes", { title: `${who} new` });
      expect(r.status, r.text).toBe(201);
      expect(r.body.owner_id).toBe(userId(who));
    });
    it("list: should block an insert owned by the other user (403, nothing written)", async () => {
      const title = `forged ${who} ${Math.random()}`;
      const r = await call(who, "POST", "/notes", { title, owner_id: userId(other(who)) });
      expectError(r, 403, "forbidden");
      expect(await byKey(`/notes?${qs({ title })}`)).toEqual([]);
    });
    it("by id: should allow reading back an own insert; should block it for the other user", async () => {
      const r = await call(who, "POST", "/notes", { title: "private insert" });
      expect((await call(who, "GET", `/notes/${r.body.id}`)).status).toBe(200);
      expectError(await call(other(who), "GET", `/notes/${r.body.id}`), 404, "not_found");
    });
    it("filtered list: should block a bulk insert with one forged row (all or nothing)", async () => {
      const tag = `bulk-${Math.random()}`;
      const r = await call(who, "POST", "/notes", [{ title: tag }, { title: tag, owner_id: userId(other(who)) }]);
      expectError(r, 403, "forbidden");
      expect(await byKey(`/notes?${qs({ title: tag })}`)).toEqual([]);
      const ok = await call(who, "POST", "/notes", [{ title: tag }, { title: tag }]);
      expect(ok.status, ok.text).toBe(201);
      expect((await call(who, "GET", `/notes?${qs({ title: tag })}`)).body.length).toBe(2);
    });
    it("sorted list: a public insert is allowed into the other user's sorted view; a private one is blocked from it", async () => {
      const rank = who === "user A" ? 1000 : 2000;
      const pub = await call(who, "POST", "/notes", { title: "zz public", public: true, rank });
      const priv = await call(who, "POST", "/notes", { title: "zz private", rank: rank + 1 });
      const top = (await call(other(who), "GET", "/notes?_sort=-rank&_limit=1")).body;
      expect(top[0].id).toBe(pub.body.id);
      expect(top[0].id).not.toBe(priv.body.id);
    });
    it("should block inserting into a table with no insert policy (403) and into the users table", async () => {
      expectError(await call(who, "POST", "/secrets", { value: "x" }), 403, "forbidden");
      expectError(await call(who, "POST", "/users", { email: "evil@example.com", password: "whatever-123" }), 403, "forbidden");
    });
    // Foreign-key semantics (docs/api.md, "Database auth and Row Level Security"): existence is checked without row policies, as in
    // PostgreSQL. The reference resolves, but the new row reveals nothing of the hidden one.
    it("should allow a reference to a row the user cannot see, without revealing it; block a missing one", async () => {
      const hiddenRef = await call(who, "POST", "/notes", { title: "ref", parent_id: f.notes[hidden(who)] });
      expect(hiddenRef.status, hiddenRef.text).toBe(201);
      expect(Object.keys(hiddenRef.body).sort()).toEqual(["body", "created_at", "id", "owner_id", "parent_id", "public", "rank", "title", "updated_at"]);
      expect(hiddenRef.text).not.toContain("secret");
      expectError(await call(who, "GET", `/notes/${f.notes[hidden(who)]}`), 404, "not_found");
      const missingRef = await call(who, "POST", "/notes", { title: "ref", parent_id: 999999 });
      expectError(missingRef, 422, "validation_failed", ["parent_id"]);
      expect(missingRef.body.errors[0]).toEqual({ field: "parent_id", code: "reference_not_found", message: "no row 999999 in notes" });
      const visibleRef = await call(who, "POST", "/notes", { title: "ref", parent_id: f.notes[foreignPublic(who)] });
      expect(visibleRef.status, visibleRef.text).toBe(201);
    });
  });

  describe("secret key · insert", () => {
    it("should allow inserting for any owner", async () => {
      expect((await call("secret key", "POST", "/notes", { title: "by key", owner_id: f.userB.id })).status).toBe(201);
    });
    it("should block an insert without owner_id when it is required for keys (auth.id fills only for users)", async () => {
      const r = await call("secret key", "POST", "/notes", { title: "no owner" });
      expect(r.status, r.text).toBe(201);
      expect(r.body.owner_id).toBeNull();
      expect401(await h().request("POST", `/v1/${f.db}/notes`, { key: "sk_not_a_real_key", body: { title: "x" } }));
    });
  });

  describe.each(["user A", "user B"] as Who[])("%s · update", (who) => {
    it("by id: should allow updating an own row", async () => {
      const n = await freshNote(who);
      const r = await call(who, "PATCH", `/notes/${n.id}`, { title: "renamed" });
      expect(r.status, r.text).toBe(200);
      expect(r.body.title).toBe("renamed");
    });
    it("by id: should block a hidden row (404) and a visible row of the other user (403), writing nothing", async () => {
      const hid = await freshNote(other(who));
      const pub = await freshNote(other(who), { public: true });
      expectError(await call(who, "PATCH", `/notes/${hid.id}`, { title: "pwned" }), 404, "not_found");
      expectError(await call(who, "PUT", `/notes/${hid.id}`, { title: "pwned", public: false }), 404, "not_found");
      expectError(await call(who, "PATCH", `/notes/${pub.id}`, { title: "pwned" }), 403, "forbidden");
      const after = await byKey(`/notes?id_in=${hid.id},${pub.id}`);
      expect(after.map((n) => n.title)).toEqual([hid.title, pub.title]);
    });
    it("filtered list: should block giving an own row away (403, unchanged) and allow keeping it", async () => {
      const n = await freshNote(who);
      expectError(await call(who, "PATCH", `/notes/${n.id}`, { owner_id: userId(other(who)) }), 403, "forbidden");
      expect((await byKey(`/notes?id=${n.id}`))[0].owner_id).toBe(userId(who));
      expect((await call(other(who), "GET", `/notes?id=${n.id}`)).body).toEqual([]);
      expect((await call(who, "PATCH", `/notes/${n.id}`, { owner_id: userId(who), body: "kept" })).status).toBe(200);
    });
    it("sorted list: an allowed update reorders the owner's view; a blocked one reorders nothing", async () => {
      const mine = await freshNote(who, { rank: -50 });
      const theirs = await freshNote(other(who), { rank: -60, public: true });
      await call(who, "PATCH", `/notes/${mine.id}`, { rank: 5000 });
      await call(who, "PATCH", `/notes/${theirs.id}`, { rank: 6000 });
      const top = (await call(who, "GET", "/notes?_sort=-rank&_limit=1")).body;
      expect(top[0].id).toBe(mine.id);
      expect((await byKey(`/notes?id=${theirs.id}`))[0].rank).toBe(-60);
    });
    it("should block updates of a table without an update policy", async () => {
      const s = await h().request("POST", `/v1/${f.db}/secrets`, { body: { value: "v" } });
      expectError(await call(who, "PATCH", `/secrets/${s.body.id}`, { value: "w" }), 403, "forbidden");
    });
  });

  describe.each(["user A", "user B"] as Who[])("%s · delete", (who) => {
    it("by id: should allow deleting an own row", async () => {
      const n = await freshNote(who);
      expect((await call(who, "DELETE", `/notes/${n.id}`)).status).toBe(204);
      expect(await byKey(`/notes?id=${n.id}`)).toEqual([]);
    });
    it("by id: should block a hidden row (404) and a visible row of the other user (403)", async () => {
      const hid = await freshNote(other(who));
      const pub = await freshNote(other(who), { public: true });
      expectError(await call(who, "DELETE", `/notes/${hid.id}`), 404, "not_found");
      expectError(await call(who, "DELETE", `/notes/${pub.id}`), 403, "forbidden");
      expect((await byKey(`/notes?id_in=${hid.id},${pub.id}`)).length).toBe(2);
    });
    it("list / filtered / sorted: a deleted own row leaves the views; blocked deletes leave them unchanged", async () => {
      const before = (await call(who, "GET", "/notes?_sort=-rank&_limit=1000")).body.map((n: any) => n.id);
      await call(who, "DELETE", `/notes/${f.notes[hidden(who)]}`);
      await call(who, "DELETE", `/notes/${f.notes[foreignPublic(who)]}`);
      const after = (await call(who, "GET", "/notes?_sort=-rank&_limit=1000")).body.map((n: any) => n.id);
      expect(after).toEqual(before);
      expect((await byKey(`/notes?id=${f.notes[hidden(who)]}`)).length).toBe(1);
    });
    it("should block deletes on a table without a delete policy", async () => {
      const s = await h().request("POST", `/v1/${f.db}/secrets`, { body: { value: "v" } });
      expectError(await call(who, "DELETE", `/secrets/${s.body.id}`), 403, "forbidden");
      expect((await byKey(`/secrets?id=${s.body.id}`)).length).toBe(1);
    });
  });

  describe("secret key · update and delete", () => {
    it("should allow updating and deleting any user's row", async () => {
      const n = await freshNote("user B");
      expect((await call("secret key", "PATCH", `/notes/${n.id}`, { title: "key edit" })).status).toBe(200);
      expect((await call("secret key", "DELETE", `/notes/${n.id}`)).status).toBe(204);
    });
    it("should block a key of another account (401), leaving the row", async () => {
      const n = await freshNote("user A");
      const stranger = await h().createAccount();
      expect401(await h().request("DELETE", `/v1/${f.db}/notes/${n.id}`, { key: stranger.key }));
      expect((await byKey(`/notes?id=${n.id}`)).length).toBe(1);
    });
  });

  describe.each(["user A", "user B"] as Who[])("%s · no oracle", (who) => {
    it("filters and sorts on every column return the visible set's answer, and counts match", async () => {
      const all = (await byKey("/notes?_limit=1000")) as any[];
      const visibleIds = new Set((await call(who, "GET", "/notes?_limit=1000")).body.map((n: any) => n.id));
      for (const n of all) {
        if (visibleIds.has(n.id)) continue;
        // Every property of a hidden row, used as a filter, must find nothing the visible set would not.
        const probes: Record<string, string | number>[] = [
          { id: n.id },
          { title: n.title },
          { title_ilike: n.title.slice(0, 5) },
          { rank: n.rank ?? 0 },
          { rank_gte: n.rank ?? 0 },
          { owner_id: n.owner_id ?? 0 },
          { public: String(n.public) },
          { created_at: n.created_at },
        ];
        for (const q of probes) {
          const r = await call(who, "GET", `/notes?${qs(q)}&_limit=1000`, undefined, { prefer: "count=exact" });
          expect(r.status, r.text).toBe(200);
          expect(r.body.every((row: any) => visibleIds.has(row.id))).toBe(true);
          expect(r.headers.get("x-total-count")).toBe(String(r.body.length));
        }
      }
      for (const column of ["id", "title", "body", "rank", "public", "owner_id", "created_at", "updated_at"]) {
        for (const dir of ["", "-"]) {
          const r = await call(who, "GET", `/notes?_sort=${dir}${column}&_limit=1000`, undefined, { prefer: "count=exact" });
          expect(r.status, r.text).toBe(200);
          expect(new Set(r.body.map((n: any) => n.id))).toEqual(visibleIds);
          expect(r.headers.get("x-total-count")).toBe(String(visibleIds.size));
        }
      }
    });
    it("the users table shows only the caller's own row, never a password hash", async () => {
      const r = await call(who, "GET", "/users");
      expect(r.body.map((u: any) => u.id)).toEqual([userId(who)]);
      expect(r.text).not.toMatch(/\$2[aby]\$/);
      expect((await call(who, "GET", `/users?${qs({ email: who === "user A" ? "b@example.com" : "a@example.com" })}`)).body).toEqual([]);
      expectError(await call(who, "GET", `/users/${userId(other(who))}`), 404, "not_found");
    });
    it("a table with no select policy is closed (403), also by id", async () => {
      expectError(await call(who, "GET", "/secrets"), 403, "forbidden");
      expectError(await call(who, "GET", "/secrets/1"), 403, "forbidden");
    });
    it("the OpenAPI document needs a secret key", async () => {
      expectError(await call(who, "GET", "/openapi.json"), 403, "forbidden");
    });
  });

  it.each(CALLERS)("%s: OPTIONS preflight is answered without credentials", async (who) => {
    const r = await call(who, "OPTIONS", "/notes");
    expect(r.status).toBe(204);
  });
});
