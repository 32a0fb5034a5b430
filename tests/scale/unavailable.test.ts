// Running out of a resource is a moment's shortage, answered 503 `unavailable` with Retry-After, not 500.
import { randomBytes } from "node:crypto";
import { createPool } from "mysql2/promise";
import { describe, expect, it, vi } from "vitest";
import { handleDataRequest } from "../../lib/api/handle-data-request";
import { createApp } from "../../lib/app";
import { toErrorResponse } from "../../lib/errors";
import { webHandler } from "../../lib/http/web-adapter";
import { createAccount } from "../../lib/services/accounts/create-account";
import { handleManagementRequest } from "../../lib/mgmt/handle-management-request";
import { logger } from "../../lib/ops/logger";

const withCode = (fields: Record<string, unknown>) => Object.assign(new Error("boom"), fields);

describe("resource exhaustion maps to 503", () => {
  it.each([
    ["out of descriptors (EMFILE)", withCode({ code: "EMFILE", errno: -24 })],
    ["system file table full (ENFILE)", withCode({ code: "ENFILE", errno: -23 })],
    ["SQLite cannot open a file", withCode({ code: "SQLITE_CANTOPEN" })],
    ["MySQL: too many connections (1040)", withCode({ errno: 1040, code: "ER_CON_COUNT_ERROR" })],
    ["MySQL: the user's connection limit (1203)", withCode({ errno: 1203, code: "ER_TOO_MANY_USER_CONNECTIONS" })],
    ["MySQL: a user's resource limit (1226)", withCode({ errno: 1226, code: "ER_USER_LIMIT_REACHED" })],
  ])("should answer 503: %s", (_, err) => {
    const { status, body, headers } = toErrorResponse(err);
    expect(status).toBe(503);
    expect(headers).toEqual({ "Retry-After": "1" });
    expect(body.error).toBe("unavailable");
    expect(body.message).toMatch(/retry in a moment/);
    expect(Object.keys(body).sort()).toEqual(["error", "message"]);
  });

  it.each([
    ["a missing file (ENOENT)", withCode({ code: "ENOENT", errno: -2 })],
    ["a SQLite constraint", withCode({ code: "SQLITE_CONSTRAINT_CHECK" })],
    ["MySQL: unknown column (1054)", withCode({ errno: 1054 })],
    ["anything else", new Error("boom")],
  ])("should stay 500: %s", (_, err) => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const { status, body } = toErrorResponse(err);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
    expect(status).toBe(500);
    expect(body).toEqual({ error: "internal", message: "The server failed to handle this request." });
  });
});

// MariaDB only: the case needs a server that refuses connections. A throw-away user limited to 2 connections
// plays that server (MAX_USER_CONNECTIONS: error 1226); the machine's server is not reconfigured.
describe.skipIf(!process.env.TEST_MYSQL_URL)("MariaDB out of connections", () => {
  it("a burst past the server's connection limit gets 503 + Retry-After (never 500), then requests succeed again", async () => {
    const base = new URL(process.env.TEST_MYSQL_URL!);
    const id = randomBytes(4).toString("hex");
    const meta = `tabula_lim_${id}`;
    const user = `tabula_lim_${id}`;
    const root = createPool({ host: base.hostname, port: Number(base.port || 3306), user: decodeURIComponent(base.username || "root"), password: decodeURIComponent(base.password) });
    await root.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw-${id}' WITH MAX_USER_CONNECTIONS 2`);
    await root.query(`GRANT ALL PRIVILEGES ON \`${meta}%\`.* TO '${user}'@'%'`);
    const full = new URL(base);
    full.pathname = `/${meta}`;
    const limited = new URL(full);
    limited.username = user;
    limited.password = `pw-${id}`;
    limited.searchParams.set("connectionLimit", "20");
    const setup = await createApp({ engine: "mysql", dataDir: "/tmp", databaseUrl: full.toString(), bcryptCost: 4 });
    const app = await createApp({ engine: "mysql", dataDir: "/tmp", databaseUrl: limited.toString(), bcryptCost: 4 });
    try {
      const { key } = await createAccount(setup, { email: "limits@example.com", password: "correct horse battery" });
      const manage = webHandler(async () => setup, (a, req) => handleManagementRequest(a, req));
      const created = await manage(
        new Request("http://tabula.test/api/v1/databases", {
          method: "POST",
          headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "Burst", tables: [{ name: "notes", columns: [{ name: "n", type: "int" }] }] }),
        }),
      );
      expect(created.status).toBe(201);
      const db = (await created.json()) as { instance: string };
      const ask = webHandler(async () => app, handleDataRequest);
      const get = async () => {
        const res = await ask(new Request(`http://tabula.test/v1/${db.instance}/notes`, { headers: { "x-api-key": key.key } }));
        return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
      };
      const burst = await Promise.all(Array.from({ length: 30 }, get));
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      const refused = burst.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect(r).toMatchObject({ retryAfter: "1", body: { error: "unavailable" } });
      expect(await get()).toMatchObject({ status: 200, body: [] });
    } finally {
      await app.close();
      await setup.close();
      const [rows] = await root.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name LIKE ?", [`${meta}%`]);
      for (const { s } of rows as { s: string }[]) await root.query(`DROP DATABASE \`${s}\``);
      await root.query(`DROP USER '${user}'@'%'`);
      await root.end();
    }
  });
});
