// A server killed (SIGKILL) in the middle of a restore: the database it was filling is never listed, its name
// stays held only while the claim could still be alive, and after a restart the sweeper deletes the partial
// database (metadata, physical database, claim) so the same restore can run again and completes whole.
import http from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimName, sweepStaleRestores } from "../../lib/backup/claim-name";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startServerProcess } from "../helpers/server-process";
import { download, restore, takeBackup, userDatabases } from "./backup-fixture";

const ROWS = 5_000;

describe.each(ENGINES)("a restore cut off by kill -9 on %s", (engine) => {
  let h: Harness;
  let archive: Buffer;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    const db = await createDatabase(h, "crash source", [{ name: "items", columns: [{ name: "n", type: "int" }, { name: "label", type: "varchar", length: 80 }] }]);
    for (let start = 0; start < ROWS; start += 1_000) {
      const rows = Array.from({ length: 1_000 }, (_, i) => ({ n: start + i, label: `row ${start + i} ${"x".repeat(40)} ${(start + i) * 7919}` }));
      const reply = await h.request("POST", `/v1/${db}/items`, { body: rows });
      expect(reply.status, reply.text).toBe(201);
    }
    const backup = await takeBackup(h, db);
    archive = await download(h, db, backup.id);
  }, 120_000);
  afterAll(() => h?.close());

  const rowsIn = async (name: string) => {
    const row = await h.app.engine.meta.selectFrom("databases").select("physical").where("name", "=", name).executeTakeFirst();
    if (!row) return -1;
    const udb = h.app.engine.userDb(row.physical);
    const counted = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${udb.table("items")}`.execute(udb.db).catch(() => undefined);
    return Number(counted?.rows[0]?.n ?? 0);
  };

  it("never lists the partial database, and after a restart sweeps it so the name restores whole", async () => {
    const server = await startServerProcess(h, { RESTORE_STALE_SECONDS: "2" });
    try {
      const url = new URL(`${server.base}/api/v1/databases/restore?name=crashed`);
      const req = http.request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: "POST", headers: { "x-api-key": h.accountKey, "content-type": "application/gzip", "transfer-encoding": "chunked" } });
      req.on("error", () => undefined);
      // Most of the archive, never its end: the restore stays mid-way with some rows written.
      req.write(archive.subarray(0, Math.floor(archive.length * 0.7)));
      const deadline = Date.now() + 20_000;
      while ((await rowsIn("crashed")) <= 0) {
        if (Date.now() > deadline) throw new Error(`the restore wrote no rows: ${server.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      server.child.kill("SIGKILL");
      await server.exited;
    } finally {
      server.child.kill("SIGKILL");
    }
    const partial = await rowsIn("crashed");
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(ROWS);
    expect((await userDatabases(h)).listed).not.toContain("crashed");
    // The claim may still belong to a live restore (its age is under RESTORE_STALE_SECONDS here): the name is held.
    expect((await restore(h, "crashed", archive)).status).toBe(409);

    const restarted = await startServerProcess(h, { RESTORE_STALE_SECONDS: "1" });
    try {
      const deadline = Date.now() + 20_000;
      while ((await rowsIn("crashed")) !== -1 || (await userDatabases(h)).claims > 0) {
        if (Date.now() > deadline) throw new Error(`the partial database was not swept: ${restarted.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const left = await userDatabases(h);
      expect(left.physical.length).toBe(left.meta);
      const again = await restore(h, "crashed", archive);
      expect(again.status, again.text).toBe(201);
      expect(await rowsIn("crashed")).toBe(ROWS);
      expect((await userDatabases(h)).listed).toContain("crashed");
    } finally {
      await restarted.stop();
    }
  }, 120_000);

  it("sweeps only the database its restore made: one made by hand under the same name stays", async () => {
    const ctx = { app: h.app, actor: { accountId: h.accountId, isOperator: false, keyDatabaseId: null } };
    const claim = await claimName(ctx, "twice named");
    const byHand = await createDatabase(h, "twice named");
    // The claim's process died before its database was made: nothing is attached, and it went stale.
    await h.app.engine.meta.updateTable("restore_claims").set({ alive_at: "2000-01-01T00:00:00.000Z" }).where("name", "=", "twice named").execute();
    expect(await sweepStaleRestores(h.app)).toBe(1);
    expect((await userDatabases(h)).claims).toBe(0);
    expect((await h.request("GET", `/api/v1/databases/${byHand}`)).status).toBe(200);
    expect((await userDatabases(h)).listed).toContain("twice named");
    await claim.release();
  });
});
