// Every write transaction ends, committed or rolled back, before its connection serves anything else. On MySQL
// the kernel's connections run with autocommit off (a transaction begins with its first statement, no BEGIN),
// so a transaction left open would keep its row locks on a pooled connection: after each kind of ending, a
// connection of the test's own must be able to write the same row at once. Both engines.
import Database from "better-sqlite3";
import { createConnection } from "mysql2/promise";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expectError, insert, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { putHooks } from "../hooks/hooks-fixture";
import { loadSchema } from "../../lib/meta/load-schema";

describe.each(ENGINES)("write transactions end (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  let row = 0;
  /** Writes `stock` of the row from outside the app, failing at once if anything still locks it. */
  let writeFromOutside: (stock: number) => Promise<void>;
  /** The row's stock as another connection reads it (what has been committed). */
  let readFromOutside: () => Promise<number>;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "ends", [{ name: "items", columns: [{ name: "stock", type: "int" }, { name: "note", type: "varchar", length: 8 }] }]);
    await putHooks(ctx.h, db, "items", { update: [{ assert: "new.stock != 13", message: "13 is refused" }] });
    row = (await insert(ctx.h, `/v1/${db}/items`, { stock: 1 })).id;
    const { physical } = (await loadSchema(ctx.h.app, db))!;
    if (engine === "mysql") {
      const server = new URL(process.env.TEST_MYSQL_URL!);
      const other = await createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username || "root"), password: decodeURIComponent(server.password) });
      await other.query("SET SESSION innodb_lock_wait_timeout = 1");
      const table = `\`${physical}\`.\`items\``;
      writeFromOutside = async (stock) => void (await other.query(`UPDATE ${table} SET stock = ? WHERE id = ?`, [stock, row]));
      readFromOutside = async () => ((await other.query(`SELECT stock FROM ${table} WHERE id = ?`, [row])) as unknown as [{ stock: number }[]])[0][0].stock;
      return () => other.end();
    }
    const other = new Database(path.join(ctx.h.app.config.dataDir, "databases", physical), { timeout: 0 });
    writeFromOutside = async (stock) => void other.prepare("UPDATE items SET stock = ? WHERE id = ?").run(stock, row);
    readFromOutside = async () => (other.prepare("SELECT stock FROM items WHERE id = ?").get(row) as { stock: number }).stock;
    return () => other.close();
  });

  const patch = (body: unknown, id = row) => ctx.h.request("PATCH", `/v1/${db}/items/${id}`, { body });

  it("after a commit: the new value is visible outside and the row is free", async () => {
    const reply = await patch({ stock: 5 });
    expect(reply.status, reply.text).toBe(200);
    expect(await readFromOutside()).toBe(5);
    await writeFromOutside(6);
    expect((await ctx.h.request("GET", `/v1/${db}/items/${row}`)).body.stock).toBe(6);
  });

  it("after a refusal once the row is locked (422 on a value, 422 from the hook): nothing changed and the row is free", async () => {
    await writeFromOutside(7);
    expectError(await patch({ note: "far too long" }), 422, "validation_failed", ["note"]);
    expect((await patch({ stock: 13 })).status).toBe(422);
    expect(await readFromOutside()).toBe(7);
    await writeFromOutside(8);
  });

  it("after a 404, and after more refusals at once than the pool has connections: every connection is free", async () => {
    expect((await patch({ stock: 1 }, row + 1000)).status).toBe(404);
    // More refusals at once than the pool has connections, so each of its connections ends one.
    const replies = await Promise.all(Array.from({ length: 30 }, () => patch({ stock: 13 })));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 422));
    await writeFromOutside(9);
    const after = await patch({ stock: 10 });
    expect(after.status, after.text).toBe(200);
    expect(await readFromOutside()).toBe(10);
  });
});
