// An install whose database user may not make accounts (no CREATE USER, no GRANT OPTION): the SQL console says
// so with a 503 and runs nothing, rather than running as the app's own user; everything else works. MariaDB
// only: SQLite has no accounts.
import { randomBytes } from "node:crypto";
import { createPool, type Pool } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlConnectionOptions } from "../../lib/db/engine";
import { type Harness, startHarness } from "../helpers/harness";

describe.runIf(process.env.TEST_MYSQL_URL)("the SQL console when the app's database user may not make accounts", () => {
  let root: Pool;
  let h: Harness;
  const user = `tabula_lim_${randomBytes(4).toString("hex")}`;
  const password = randomBytes(12).toString("hex");

  beforeAll(async () => {
    root = createPool(mysqlConnectionOptions(process.env.TEST_MYSQL_URL!));
    const [hosts] = await root.query("SELECT SUBSTRING_INDEX(CURRENT_USER(), '@', -1) AS host");
    const host = (hosts as { host: string }[])[0].host;
    await root.query("CREATE USER ?@? IDENTIFIED BY ?", [user, host, password]);
    // Every privilege on the harness's schemas (tabula_t_<id> and its databases), none on accounts.
    await root.query("GRANT ALL PRIVILEGES ON `tabula\\_t\\_%`.* TO ?@?", [user, host]);
    const url = new URL(process.env.TEST_MYSQL_URL!);
    url.username = user;
    url.password = password;
    h = await startHarness("mysql", "node", { mysqlUrl: url.toString() });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    const [hosts] = await root.query("SELECT Host AS host FROM mysql.user WHERE User = ?", [user]);
    for (const { host } of hosts as { host: string }[]) await root.query("DROP USER ?@?", [user, host]);
    await root?.end();
  });

  it("creates the database, then answers 503 naming the missing privilege instead of running the SELECT", async () => {
    const db = await h.request("POST", "/api/v1/databases", { body: { name: "Limited", tables: [{ name: "notes", columns: [{ name: "body", type: "text" }] }] } });
    expect(db.status, db.text).toBe(201);
    const rows = await h.request("GET", `/v1/${db.body.instance}/notes`);
    expect(rows.status, rows.text).toBe(200);
    const reply = await h.request("POST", `/api/v1/databases/${db.body.instance}/sql`, { body: { sql: "SELECT count(*) AS n FROM notes" } });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 503,
      body: { error: "unavailable", message: expect.stringMatching(/^The SQL console runs as a read-only MariaDB account of this database, and the database user Tabula connects as could not create it \(it needs the CREATE USER privilege and GRANT OPTION/) },
    });
  });
});
