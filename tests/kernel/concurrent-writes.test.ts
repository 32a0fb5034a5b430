// Writes racing on one row: the pre hook's `old` is the row as locked inside the write's transaction, so a
// counter hook counts every PATCH (from two server processes, since one SQLite process runs its writes one by
// one anyway) and a stock guard never sells what is gone; a deadlock between the API's transaction and another
// one ends in a retry (2xx) or 409 write_conflict, never a 500. Both engines.
import { spawn } from "node:child_process";
import { createConnection } from "mysql2/promise";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expectError, insert, sleep, useHarness } from "../contract/contract-helpers";
import { ENGINES, type Reply } from "../helpers/harness";
import { startServerProcess } from "../helpers/server-process";
import { putHooks } from "../hooks/hooks-fixture";
import { loadSchema } from "../../lib/meta/load-schema";

const COUNTER_HOOKS = { update: [{ set: "views", expr: "old.views + 1" }] };
const STOCK_HOOKS = {
  update: [
    { assert: "old.stock >= new.qty", message: "not enough stock" },
    { set: "stock", expr: "old.stock - new.qty" },
  ],
};

/** Takes the write lock, writes the row, says so, holds the lock 300 ms, commits. */
const HOLD_LOCK = `const db = new (require("better-sqlite3"))(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
db.prepare("UPDATE orders SET note = 'other' WHERE id = ?").run(Number(process.argv[2]));
process.stdout.write("locked\\n");
setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);`;

const patch = async (base: string, urlPath: string, key: string, body: unknown): Promise<Reply> => {
  const response = await fetch(`${base}${urlPath}`, { method: "PATCH", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
};

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

describe.each(ENGINES)("concurrent writes (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "races", [
      { name: "pages", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "views", type: "int", nullable: false, default: 0 }] },
      { name: "products", columns: [{ name: "name", type: "varchar", nullable: false }, { name: "stock", type: "int", nullable: false }, { name: "qty", type: "int" }] },
      { name: "orders", columns: [{ name: "note", type: "varchar" }, { name: "product_id", type: "reference", references: "products" }] },
    ]);
    await putHooks(ctx.h, db, "pages", COUNTER_HOOKS);
    await putHooks(ctx.h, db, "products", STOCK_HOOKS);
  });

  it("200 concurrent PATCHes from two server processes under `views = old.views + 1` all count", { timeout: 90_000 }, async () => {
    const page = await insert(ctx.h, `/v1/${db}/pages`, { title: "home" });
    const other = await startServerProcess(ctx.h);
    try {
      const url = `/v1/${db}/pages/${page.id}`;
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? patch(other.base, url, ctx.h.accountKey, { title: "home" }) : ctx.h.request("PATCH", url, { body: { title: "home" } }))),
      );
      expect(tally(replies.map((r) => r.status))).toEqual({ 200: 200 });
      const stored = await ctx.h.request("GET", url);
      expect(stored.body.views).toBe(200);
    } finally {
      await other.stop();
    }
  });

  it("100 concurrent orders of 1 from a stock of 60: 60 succeed, 40 are refused, stock ends at 0", async () => {
    const product = await insert(ctx.h, `/v1/${db}/products`, { name: "lamp", stock: 60 });
    const replies = await Promise.all(Array.from({ length: 100 }, () => ctx.h.request("PATCH", `/v1/${db}/products/${product.id}`, { body: { qty: 1 } })));
    expect(tally(replies.map((r) => r.status))).toEqual({ 200: 60, 422: 40 });
    const refused = replies.find((r) => r.status === 422)!;
    expectError(refused, 422, "validation_failed", ["hook.update[0]"]);
    const stored = await ctx.h.request("GET", `/v1/${db}/products/${product.id}`);
    expect(stored.body.stock).toBe(0);
  });

  // Defined per engine (never skipped): a deadlock needs row locks, which only MariaDB takes.
  if (engine === "mysql") it("a deadlock between an API write and another transaction ends in 2xx or 409, never 500", async () => {
    const products = await insert(ctx.h, `/v1/${db}/products`, Array.from({ length: 5 }, (_, i) => ({ name: `p${i}`, stock: 1 })));
    const order = await insert(ctx.h, `/v1/${db}/orders`, { note: "first" });
    const { physical } = (await loadSchema(ctx.h.app, db))!;
    const server = new URL(process.env.TEST_MYSQL_URL!);
    const other = await createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username || "root"), password: decodeURIComponent(server.password) });
    try {
      // The other transaction locks the products first (more rows than the API's, so InnoDB picks the API's as
      // the victim); the API's UPDATE locks the order, then its foreign key waits for product 1; the other
      // transaction then asks for the order: a cycle.
      await other.query("BEGIN");
      await other.query(`UPDATE \`${physical}\`.\`products\` SET stock = stock + 1 WHERE id IN (?)`, [products.map((p: { id: number }) => p.id)]);
      const api = ctx.h.request("PATCH", `/v1/${db}/orders/${order.id}`, { body: { product_id: products[0].id } });
      await sleep(300);
      const mine = await other.query(`UPDATE \`${physical}\`.\`orders\` SET note = 'other' WHERE id = ?`, [order.id]).then(() => "locked", (err: { errno?: number }) => err.errno);
      await other.query(mine === "locked" ? "COMMIT" : "ROLLBACK");
      const reply = await api;
      expect([200, 409], reply.text).toContain(reply.status);
      if (reply.status === 409) expect(reply.body).toMatchObject({ error: "write_conflict", retryable: true });
      else expect(reply.body.product_id).toBe(products[0].id);
    } finally {
      await other.end();
    }
  });

  // Another process, since better-sqlite3 waits for a lock synchronously and would stall this one's event loop.
  if (engine === "sqlite") it("a write waits for another process's write lock, then succeeds (BEGIN IMMEDIATE: no deadlock)", async () => {
    const order = await insert(ctx.h, `/v1/${db}/orders`, { note: "first" });
    const { physical } = (await loadSchema(ctx.h.app, db))!;
    const file = path.join(ctx.h.app.config.dataDir, "databases", physical);
    const holder = spawn(process.execPath, ["-e", HOLD_LOCK, file, String(order.id)], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    const reply = await ctx.h.request("PATCH", `/v1/${db}/orders/${order.id}`, { body: { note: "api" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.note).toBe("api");
  });
});
