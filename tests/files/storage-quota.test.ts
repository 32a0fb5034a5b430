// The storage quota holds under concurrency: uploads reserve their bytes before storing anything, so 20 at once
// against a small plan never together pass it; the refused ones leave no file and no reservation, and the counter
// the account's usage reads follows every write that attaches or removes files. A recount (the sweeper's repair)
// sets a counter that went wrong back to what the rows name.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { fileStoreOf } from "../../lib/api/files/file-scope";
import { recountStorage } from "../../lib/api/files/storage-usage";
import { sweepOrphans } from "../../lib/api/files/sweep-orphans";
import { uploadsOf } from "../../lib/files/tus";
import { databaseId, pngBytes, storedKeys, upload } from "./files-helpers";

const QUOTA = 10_000;
const FILE = 1500;
const TABLE = { name: "items", columns: [{ name: "title", type: "varchar" }, { name: "pic", type: "file" }, { name: "more", type: "file", multiple: true }] };
const PLAN = { max_databases: 5, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: null, max_webhooks_per_database: null, storage_bytes: QUOTA };

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("the storage quota on $engine", (target) => {
  const ctx = useHarness(target);
  let db: string;
  let id: number;
  let key: string;

  const stored = async () => {
    let bytes = 0;
    let count = 0;
    for await (const o of fileStoreOf(ctx.h.app).list(`${id}/`)) {
      bytes += o.size;
      count++;
    }
    return { bytes, count };
  };
  const usage = async () => (await ctx.h.request("GET", "/api/v1/account", { key })).body.usage.storage_bytes as number;
  const counter = async () => Number((await ctx.h.app.engine.meta.selectFrom("file_usage").select("bytes").where("database_id", "=", id).executeTakeFirst())?.bytes ?? 0);
  const reservations = async () => (await ctx.h.app.engine.meta.selectFrom("file_reservations").select("id").where("database_id", "=", id).execute()).length;

  beforeAll(async () => {
    expect((await ctx.h.request("PUT", `/api/v1/plans/quota-${target.engine}`, { body: PLAN })).status).toBe(200);
    const owner = await ctx.h.createAccount();
    key = owner.key;
    expect((await ctx.h.request("PATCH", `/api/v1/accounts/${owner.accountId}`, { body: { plan: `quota-${target.engine}` } })).status).toBe(200);
    db = await createDatabase(ctx.h, `quota race ${target.engine}`, [TABLE], key);
    id = await databaseId(ctx.h, db);
  });

  it("20 concurrent uploads never take the account past storage_bytes; the refused ones leave no file", async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(ctx.h, "POST", `/v1/${db}/items`, [{ name: "title", value: `r${i}` }, { name: "pic", bytes: pngBytes(FILE), filename: `${i}.png` }], { key })),
    );
    const made = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status !== 201);
    expect(made.length).toBeGreaterThan(0);
    expect(made.length * FILE).toBeLessThanOrEqual(QUOTA);
    for (const r of refused) expect(r.body, r.text).toMatchObject({ error: "quota_exceeded", quota: { kind: "storage_bytes", limit: QUOTA } });
    const now = await stored();
    expect(now.bytes).toBeLessThanOrEqual(QUOTA);
    expect(now).toEqual({ bytes: made.length * FILE, count: made.length });
    expect(await counter()).toBe(made.length * FILE);
    expect(await usage()).toBe(made.length * FILE);
    expect(await reservations()).toBe(0);
  });

  it("the counter follows replacing, appending, clearing and deleting files", async () => {
    const before = await counter();
    const list = await ctx.h.request("GET", `/v1/${db}/items?_limit=1`, { key });
    const row = (Array.isArray(list.body) ? list.body : list.body.items ?? list.body.data)[0];
    const replaced = await upload(ctx.h, "PATCH", `/v1/${db}/items/${row.id}`, [{ name: "pic", bytes: pngBytes(700), filename: "small.png" }], { key });
    expect(replaced.status, replaced.text).toBe(200);
    expect(await counter()).toBe(before - FILE + 700);
    const appended = await upload(ctx.h, "PATCH", `/v1/${db}/items/${row.id}`, [{ name: "more+", bytes: pngBytes(300), filename: "m.png" }], { key });
    expect(appended.status, appended.text).toBe(200);
    expect(await counter()).toBe(before - FILE + 1000);
    const cleared = await ctx.h.request("PATCH", `/v1/${db}/items/${row.id}`, { key, body: { pic: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await counter()).toBe(before - FILE + 300);
    expect((await ctx.h.request("DELETE", `/v1/${db}/items/${row.id}`, { key })).status).toBe(204);
    expect(await counter()).toBe(before - FILE);
    expect(await usage()).toBe((await stored()).bytes);
    expect(await reservations()).toBe(0);
  });

  it("a resumable upload declaring more than the plan has room for is refused at creation and stores nothing; one that fits is made", async () => {
    const owner = await ctx.h.createAccount();
    expect((await ctx.h.request("PATCH", `/api/v1/accounts/${owner.accountId}`, { body: { plan: `quota-${target.engine}` } })).status).toBe(200);
    const fresh = await createDatabase(ctx.h, `quota tus ${target.engine}`, [TABLE], owner.key);
    const create = (length: number) =>
      fetch(`${ctx.h.baseUrl}/v1/${fresh}/_uploads`, { method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": String(length), "x-api-key": owner.key } });
    const refused = await create(QUOTA + 1);
    expect(refused.status).toBe(402);
    expect(refused.headers.get("location")).toBeNull();
    expect(await refused.json()).toMatchObject({ error: "quota_exceeded", quota: { kind: "storage_bytes", limit: QUOTA, used: 0 } });
    const made = await create(QUOTA);
    expect(made.status).toBe(201);
    expect(made.headers.get("location")).toMatch(new RegExp(`^/v1/${fresh}/_uploads/[0-9a-f]{32}$`));
    // Only the upload that fits was made: it is the one an expiry pass a day later removes.
    expect(await uploadsOf(ctx.h.app.config).expireUploads(new Date(Date.now() + 25 * 3600_000))).toBe(1);
  });

  it("a column change that empties rows' files (multiple to single, misfits to NULL) moves the counter with them", async () => {
    const owner = await ctx.h.createAccount();
    const fresh = await createDatabase(ctx.h, `quota column ${target.engine}`, [TABLE], owner.key);
    const freshId = await databaseId(ctx.h, fresh);
    const two = await upload(ctx.h, "POST", `/v1/${fresh}/items`, [{ name: "title", value: "two" }, { name: "more", bytes: pngBytes(FILE), filename: "a.png" }, { name: "more", bytes: pngBytes(FILE), filename: "b.png" }], { key: owner.key });
    expect(two.status, two.text).toBe(201);
    const one = await upload(ctx.h, "POST", `/v1/${fresh}/items`, [{ name: "title", value: "one" }, { name: "more", bytes: pngBytes(FILE), filename: "c.png" }], { key: owner.key });
    expect(one.status, one.text).toBe(201);
    const counted = async () => Number((await ctx.h.app.engine.meta.selectFrom("file_usage").select("bytes").where("database_id", "=", freshId).executeTakeFirst())?.bytes ?? 0);
    expect(await counted()).toBe(3 * FILE);
    expect(await storedKeys(ctx.h, `${freshId}/`)).toHaveLength(3);
    const single = await ctx.h.request("PATCH", `/api/v1/databases/${fresh}/tables/items/columns/more`, { body: { multiple: false, misfits: "null" }, key: owner.key });
    expect(single.status, single.text).toBe(200);
    expect((await ctx.h.request("GET", `/v1/${fresh}/items/${two.body.id}`, { key: owner.key })).body.more).toBeNull();
    expect(await counted()).toBe(FILE);
    expect((await ctx.h.request("GET", "/api/v1/account", { key: owner.key })).body.usage.storage_bytes).toBe(FILE);
    // The emptied row's two files are gone from the store; the kept one is still there and served.
    const kept = (await ctx.h.request("GET", `/v1/${fresh}/items/${one.body.id}`, { key: owner.key })).body.more;
    expect((await storedKeys(ctx.h, `${freshId}/`)).map((k) => k.split("/").pop())).toEqual([kept.name]);
    expect((await ctx.h.request("GET", kept.url, { key: owner.key })).status).toBe(200);
  });

  it("a recount, and the sweeper's pass, set a wrong counter and a dead process's reservation right", async () => {
    const right = await counter();
    await ctx.h.app.engine.meta.updateTable("file_usage").set({ bytes: 123_456 }).where("database_id", "=", id).execute();
    await ctx.h.app.engine.meta.insertInto("file_reservations").values({ database_id: id, bytes: 5000, expires_ms: Date.now() - 1 }).execute();
    expect(await recountStorage(ctx.h.app, db)).toBe(right);
    expect(await counter()).toBe(right);
    await ctx.h.app.engine.meta.updateTable("file_usage").set({ bytes: 0 }).where("database_id", "=", id).execute();
    await sweepOrphans(ctx.h.app, { graceMs: 3_600_000 });
    expect(await counter()).toBe(right);
    expect(await reservations()).toBe(0);
  });
});
