// The process caches keyed by what clients send, or by tenant, stay at their bound however many distinct entries
// arrive, keep what is in use, and still answer right. Keys and roles go through the real lookups on both engines.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MAX_CACHED_KEYS, MAX_CACHED_UNKNOWN_KEYS, resolveKey } from "../../lib/keys/resolve-key";
import { LruMap } from "../../lib/lru-map";
import { createDatabaseCaches, MAX_CACHED_DATABASES } from "../../lib/meta/schema-cache";
import { cachedWorkspaceRole, MAX_CACHED_ROLES } from "../../lib/teams/roles";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";

describe("LruMap", () => {
  it("holds its bound after bound + 1,000 distinct inserts, dropping the least recently used", () => {
    const map = new LruMap<number, string>(100);
    for (let i = 0; i < 1_100; i++) {
      map.set(i, `v${i}`);
      if (i % 10 === 0) expect(map.get(0)).toBe("v0"); // read all along: never the least recently used
    }
    expect(map.size).toBe(100);
    expect(map.get(0)).toBe("v0");
    expect(map.get(1_099)).toBe("v1099");
    expect(map.has(1_001)).toBe(true);
    expect(map.has(1_000)).toBe(false);
  });
});

describe("loaded-database caches", () => {
  it("stay at their bound after bound + 1,000 databases; dropping the oldest is no invalidation", () => {
    const caches = createDatabaseCaches();
    const epoch = caches.databases.epoch;
    const entry = (i: number) => ({ requestsPerSecond: i, shared: false }) as never;
    for (let i = 0; i < MAX_CACHED_DATABASES + 1_000; i++) caches.databases.setIfCurrent(`db${i}`, entry(i), epoch);
    expect(caches.databases.size).toBe(MAX_CACHED_DATABASES);
    expect(caches.databases.epoch).toBe(epoch);
    expect(caches.databases.has("db0")).toBe(false);
    expect(caches.databases.get(`db${MAX_CACHED_DATABASES + 999}`)).toEqual({ requestsPerSecond: MAX_CACHED_DATABASES + 999, shared: false });
  });
});

describe.each(ENGINES)("key and role caches (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });

  it("5,000 unknown keys leave at most the unknown-key bound cached; the live key stays cached and answers", async () => {
    const { h } = ctx;
    expect((await h.request("GET", "/api/v1/databases")).status).toBe(200);
    expect(h.app.keys.has(h.accountKey)).toBe(true);
    for (let i = 0; i < 5_000; i++) expect(await resolveKey(h.app, `tbl_sk_${randomBytes(24).toString("hex")}`)).toBeNull();
    expect(h.app.unknownKeys.size).toBe(MAX_CACHED_UNKNOWN_KEYS);
    expect(h.app.keys.size).toBeLessThanOrEqual(MAX_CACHED_KEYS);
    expect(h.app.keys.has(h.accountKey)).toBe(true);
    // Allowed and refused, after the flood.
    expect((await h.request("GET", "/api/v1/databases")).status).toBe(200);
    const refused = await h.request("GET", "/api/v1/databases", { key: `tbl_sk_${randomBytes(24).toString("hex")}` });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: "unauthorized", message: "The secret key is not valid (it may have been regenerated or revoked)." });
  }, 120_000);

  it("member roles stay at their bound after bound + 1,000 owner/account pairs; a role in use stays cached and right", async () => {
    const { h } = ctx;
    const member = await h.createAccount();
    const joined = new Date().toISOString();
    await h.app.engine.meta.insertInto("members").values({ owner_id: h.accountId, account_id: member.accountId, role: "editor", invited_by: h.accountId, joined_at: joined }).execute();
    const role = "editor";
    for (let i = 0; i < MAX_CACHED_ROLES + 1_000; i++) {
      if (i % 500 === 0) expect(await cachedWorkspaceRole(h.app, h.accountId, member.accountId)).toBe(role);
      await cachedWorkspaceRole(h.app, 1_000_000 + i, member.accountId);
    }
    expect(h.app.memberRoles.size).toBe(MAX_CACHED_ROLES);
    expect(h.app.memberRoles.has(`${h.accountId}:${member.accountId}`)).toBe(true);
    expect(await cachedWorkspaceRole(h.app, h.accountId, member.accountId)).toBe(role);
  }, 300_000);
});
