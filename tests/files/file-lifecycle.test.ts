// Files follow their rows: every way a row, a column, a table or a database goes removes the stored files after
// the commit; a refused write (a policy, a pre hook's assert, the storage quota) stores nothing that stays; the
// sweeper deletes an object no row names once it is older than the grace period, and nothing a row names.
// Change events carry the file objects with their urls.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { enableAuth, login, putPolicies } from "../security/security-fixture";
import { putHooks } from "../hooks/hooks-fixture";
import { fileStoreOf } from "../../lib/api/files/file-scope";
import { sweepOrphans } from "../../lib/api/files/sweep-orphans";
import { readEvents } from "../../lib/events/outbox/read-events";
import { loadDatabase } from "../../lib/meta/load-schema";
import { databaseId, pngBytes, storedKeys, upload } from "./files-helpers";
import { Readable } from "node:stream";

const TABLE = (name: string) => ({
  name,
  columns: [
    { name: "title", type: "varchar" },
    { name: "owner_id", type: "bigint" },
    { name: "pic", type: "file" },
    { name: "more", type: "file", multiple: true },
  ],
});

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("files follow their rows on $engine", (target) => {
  const ctx = useHarness(target);
  let db: string;
  let prefix: string;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, `lifecycle ${target.engine}`, [TABLE("items"), TABLE("spare"), TABLE("gone")]);
    prefix = `${await databaseId(ctx.h, db)}/`;
  });

  const make = async (table = "items", title = "x") => {
    const made = await upload(ctx.h, "POST", `/v1/${db}/${table}`, [
      { name: "title", value: title },
      { name: "pic", bytes: pngBytes(50), filename: "p.png" },
      { name: "more", bytes: pngBytes(60), filename: "m1.png" },
      { name: "more", bytes: pngBytes(70), filename: "m2.png" },
    ]);
    expect(made.status, made.text).toBe(201);
    return made.body;
  };
  const namesOf = (row: any) => [row.pic.name, ...row.more.map((f: { name: string }) => f.name)];
  const held = async (names: string[]) => {
    const keys = await storedKeys(ctx.h, prefix);
    return names.filter((n) => keys.some((k) => k.endsWith(`/${n}`)));
  };

  it("DELETE of one row removes its files", async () => {
    const row = await make();
    expect(await held(namesOf(row))).toHaveLength(3);
    expect((await ctx.h.request("DELETE", `/v1/${db}/items/${row.id}`)).status).toBe(204);
    expect(await held(namesOf(row))).toEqual([]);
  });

  it("DELETE by filter removes the files of every row it deletes, and only those", async () => {
    const [a, b, keep] = [await make("items", "bulk"), await make("items", "bulk"), await make("items", "keep")];
    const reply = await ctx.h.request("DELETE", `/v1/${db}/items?title=bulk`);
    expect(reply.status, reply.text).toBeLessThan(300);
    expect(await held([...namesOf(a), ...namesOf(b)])).toEqual([]);
    expect(await held(namesOf(keep))).toHaveLength(3);
  });

  it("clearing a column with PATCH null removes its file", async () => {
    const row = await make();
    const reply = await ctx.h.request("PATCH", `/v1/${db}/items/${row.id}`, { body: { pic: null, more: [] } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.more).toEqual([]);
    expect(await held(namesOf(row))).toEqual([]);
  });

  it("dropping a file column removes its files and leaves the other column's", async () => {
    const row = await make("spare");
    const reply = await ctx.h.request("DELETE", `/api/v1/databases/${db}/tables/spare/columns/more`);
    expect(reply.status, reply.text).toBe(204);
    expect(await held(namesOf(row))).toEqual([row.pic.name]);
  });

  it("dropping a table removes its files", async () => {
    const row = await make("gone");
    expect((await ctx.h.request("DELETE", `/api/v1/databases/${db}/tables/gone`)).status).toBe(204);
    expect(await held(namesOf(row))).toEqual([]);
  });

  it("deleting a database removes every file it holds", async () => {
    const temp = await createDatabase(ctx.h, `lifecycle temp ${target.engine}`, [TABLE("items")]);
    const made = await upload(ctx.h, "POST", `/v1/${temp}/items`, [{ name: "pic", bytes: pngBytes(), filename: "p.png" }]);
    expect(made.status, made.text).toBe(201);
    const tempPrefix = `${await databaseId(ctx.h, temp)}/`;
    expect(await storedKeys(ctx.h, tempPrefix)).toHaveLength(1);
    expect((await ctx.h.request("DELETE", `/api/v1/databases/${temp}`)).status).toBe(204);
    expect(await storedKeys(ctx.h, tempPrefix)).toEqual([]);
  });

  it("changing a column between single and multiple keeps its files; renaming it keeps the downloads", async () => {
    const row = await make();
    const multiple = await ctx.h.request("PATCH", `/api/v1/databases/${db}/tables/items/columns/pic`, { body: { multiple: true } });
    expect(multiple.status, multiple.text).toBe(200);
    const read = await ctx.h.request("GET", `/v1/${db}/items/${row.id}`);
    expect(read.body.pic.map((f: { name: string }) => f.name)).toEqual([row.pic.name]);
    const renamed = await ctx.h.request("PATCH", `/api/v1/databases/${db}/tables/items/columns/pic`, { body: { name: "photos", multiple: false } });
    expect(renamed.status, renamed.text).toBe(200);
    const again = await ctx.h.request("GET", `/v1/${db}/items/${row.id}`);
    expect(again.body.photos.name).toBe(row.pic.name);
    expect(again.body.photos.url).toBe(`/v1/${db}/items/${row.id}/photos/${row.pic.name}`);
    const more = await ctx.h.request("PATCH", `/api/v1/databases/${db}/tables/items/columns/more`, { body: { multiple: false } });
    expect(more.status).toBe(422);
    expect(more.body.errors[0]).toMatchObject({ field: "type", code: "lossy_conversion" });
    const back = await ctx.h.request("PATCH", `/api/v1/databases/${db}/tables/items/columns/photos`, { body: { name: "pic" } });
    expect(back.status, back.text).toBe(200);
  });

  it("change events carry the file objects with their urls", async () => {
    const row = await make("items", "evented");
    const database = (await loadDatabase(ctx.h.app, db))!;
    const events = await readEvents(ctx.h.app.engine.userDb(database.schema.physical), db, 0, 10_000, ["items"]);
    const mine = events.map((e) => e.event).find((e) => e?.record.id === row.id && e?.action === "insert");
    expect(mine?.record.pic).toEqual(row.pic);
  });

  it("the sweeper deletes a planted orphan older than the grace period, and keeps every file a row names", async () => {
    const row = await make();
    const tableId = (await loadDatabase(ctx.h.app, db))!.schema.tables.get("items")!.id;
    const orphan = `${prefix}${tableId}/planted_aaaaaaaa.png`;
    await fileStoreOf(ctx.h.app).put(orphan, Readable.from([Buffer.from("orphan")]), { contentType: "image/png" });
    expect(await sweepOrphans(ctx.h.app, { graceMs: 60_000 })).toBe(0);
    expect((await storedKeys(ctx.h, prefix)).includes(orphan)).toBe(true);
    const before = await storedKeys(ctx.h, prefix);
    expect(await sweepOrphans(ctx.h.app, { graceMs: 0 })).toBeGreaterThanOrEqual(1);
    const after = await storedKeys(ctx.h, prefix);
    expect(after.includes(orphan)).toBe(false);
    expect(await held(namesOf(row))).toHaveLength(3);
    expect(before.filter((k) => !after.includes(k))).toEqual([orphan]);
  });
});

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("refused uploads store nothing on $engine", (target) => {
  const ctx = useHarness(target);
  let db: string;
  let prefix: string;
  let token: string;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, `refusals ${target.engine}`, [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      TABLE("items"),
      TABLE("hooked"),
    ]);
    prefix = `${await databaseId(ctx.h, db)}/`;
    await enableAuth(ctx.h, db);
    await putPolicies(ctx.h, db, "items", { select: "true", insert: "owner_id = auth.id", update: "owner_id = auth.id" });
    const user = await ctx.h.request("POST", `/v1/${db}/users`, { body: { email: "u@example.com", password: "pass-word-1" } });
    expect(user.status, user.text).toBe(201);
    token = await login(ctx.h, db, "u@example.com", "pass-word-1");
    await putHooks(ctx.h, db, "hooked", { insert: [{ assert: "new.title != 'no'", message: "no titles of no" }] });
  });

  const parts = (title: string, owner?: number) => [
    { name: "title", value: title },
    ...(owner === undefined ? [] : [{ name: "owner_id", value: String(owner) }]),
    { name: "pic", bytes: pngBytes(500), filename: "p.png" },
    { name: "more", bytes: pngBytes(600), filename: "m.png" },
  ];

  it("should block a JWT user's insert the policy refuses (403), keeping nothing, and allow the one it permits", async () => {
    const me = (await ctx.h.request("GET", `/v1/${db}/auth/me`, { headers: { authorization: `Bearer ${token}` }, key: null })).body.id;
    const refused = await upload(ctx.h, "POST", `/v1/${db}/items`, parts("theirs", me + 1000), { token });
    expect(refused.status, refused.text).toBe(403);
    expect(await storedKeys(ctx.h, prefix)).toEqual([]);
    const allowed = await upload(ctx.h, "POST", `/v1/${db}/items`, parts("mine", me), { token });
    expect(allowed.status, allowed.text).toBe(201);
    expect(await storedKeys(ctx.h, prefix)).toHaveLength(2);
  });

  it("refuses a write a pre hook's assert stops (422 hook_assert) and keeps nothing of it", async () => {
    const before = await storedKeys(ctx.h, prefix);
    const refused = await upload(ctx.h, "POST", `/v1/${db}/hooked`, parts("no"));
    expect(refused.status, refused.text).toBe(422);
    expect(await storedKeys(ctx.h, prefix)).toEqual(before);
  });

  it("refuses an upload past the plan's storage_bytes with 402 quota_exceeded before storing", async () => {
    const plan = await ctx.h.request("PUT", `/api/v1/plans/tiny`, {
      body: { max_databases: 5, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: null, max_webhooks_per_database: null, storage_bytes: 2000 },
    });
    expect(plan.status, plan.text).toBe(200);
    const owner = await ctx.h.createAccount();
    const moved = await ctx.h.request("PATCH", `/api/v1/accounts/${owner.accountId}`, { body: { plan: "tiny" } });
    expect(moved.status, moved.text).toBe(200);
    const small = await createDatabase(ctx.h, `quota ${target.engine}`, [TABLE("items")], owner.key);
    const smallPrefix = `${await databaseId(ctx.h, small)}/`;
    const first = await upload(ctx.h, "POST", `/v1/${small}/items`, [{ name: "pic", bytes: pngBytes(1500), filename: "a.png" }], { key: owner.key });
    expect(first.status, first.text).toBe(201);
    const refused = await upload(ctx.h, "POST", `/v1/${small}/items`, parts("big"), { key: owner.key });
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body).toMatchObject({ error: "quota_exceeded", quota: { kind: "storage_bytes", limit: 2000, used: 1500 } });
    expect(await storedKeys(ctx.h, smallPrefix)).toHaveLength(1);
    const account = await ctx.h.request("GET", "/api/v1/account", { key: owner.key });
    expect(account.body.usage.storage_bytes).toBe(1500);
    expect(account.body.plan.storage_bytes).toBe(2000);
  });
});
