// What one SQL console request may take on each engine: 4 MiB of JSON cells, two requests at once per member
// and eight per process (429 past either), and on SQLite two child processes reused across requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CONCURRENCY } from "../../lib/sql-console/console-limits";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, addMember, newAccount } from "../teams/team-fixture";

const MB_TEXT = 1_000_000;
/** `n` rows, each with a text cell of 1,000,000 characters. */
const bigRows = (engine: string, n: number) =>
  `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${n}) SELECT n, ${engine === "mysql" ? `REPEAT('0', ${MB_TEXT})` : `hex(zeroblob(${MB_TEXT / 2}))`} AS big FROM c`;
/** Runs until the 5 s limit stops it. */
const HEAVY = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000) SELECT count(*) FROM c x, c y, c z";

describe.each(ENGINES)("the SQL console's bounds on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let admin: Account;
  let instance = "";
  const run = (sql: string, key = owner.key) => h.request("POST", `/api/v1/databases/${instance}/sql`, { key, body: { sql } });

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    admin = await addMember(h, owner, "admin");
    const db = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Bounds", tables: [{ name: "t", columns: [{ name: "v", type: "text" }] }] } });
    expect(db.status, db.text).toBe(201);
    instance = db.body.instance;
  }, 60_000);
  afterAll(async () => h?.close());

  it("answers every row when they fit in 4 MiB of JSON", async () => {
    const reply = await run(bigRows(engine, 3));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.rows.map((r: [number, string]) => [r[0], r[1].length])).toEqual([[1, MB_TEXT], [2, MB_TEXT], [3, MB_TEXT]]);
    expect(reply.body.truncated).toBe(false);
    expect(reply.body).not.toHaveProperty("truncated_reason");
  });

  it("stops at the row that would pass 4 MiB of JSON and says why", async () => {
    const reply = await run(bigRows(engine, 50));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.rows.map((r: [number, string]) => r[0])).toEqual([1, 2, 3, 4]);
    expect(reply.body).toMatchObject({ columns: ["n", "big"], truncated: true, truncated_reason: "bytes" });
    expect(reply.text.length).toBeLessThan(4.2 * 1024 * 1024);
    expect((await run("SELECT 1 AS one")).body.rows).toEqual([[1]]);
  });

  it("turns away a member's third request at once with a 429, while another member's runs", async () => {
    const release = [h.app.sqlConsole.slots.take(owner.accountId), h.app.sqlConsole.slots.take(owner.accountId)];
    try {
      const reply = await run("SELECT 1 AS one");
      expect({ status: reply.status, body: reply.body, retry: reply.headers.get("retry-after") }).toEqual({
        status: 429,
        body: { error: "rate_limited", message: `You already run ${CONSOLE_CONCURRENCY.perMember} SQL console queries at once, the most one member may; retry when one ends.` },
        retry: "1",
      });
      expect((await run("SELECT 1 AS one", admin.key)).status).toBe(200);
    } finally {
      release.forEach((r) => r());
    }
    expect((await run("SELECT 1 AS one")).status).toBe(200);
  });

  it("turns away a request past the process's bound with a 429", async () => {
    const release = Array.from({ length: CONSOLE_CONCURRENCY.perInstall }, (_, i) => h.app.sqlConsole.slots.take(-1 - i));
    try {
      const reply = await run("SELECT 1 AS one", admin.key);
      expect({ status: reply.status, body: reply.body, retry: reply.headers.get("retry-after") }).toEqual({
        status: 429,
        body: { error: "rate_limited", message: `The server already runs ${CONSOLE_CONCURRENCY.perInstall} SQL console queries at once, its most; retry in a moment.` },
        retry: "1",
      });
    } finally {
      release.forEach((r) => r());
    }
    expect((await run("SELECT 1 AS one", admin.key)).status).toBe(200);
  });

  it("counts running statements: two slow ones of a member hold both of its slots until they end", async () => {
    const slow = [run(HEAVY), run(HEAVY)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await run("SELECT 1 AS one")).status).toBe(429);
    for (const reply of await Promise.all(slow)) expect(reply.body.errors?.[0]?.code, reply.text).toBe("time_limit");
    expect((await run("SELECT 1 AS one")).status).toBe(200);
  }, 20_000);

  it.runIf(engine === "sqlite")("serves SQLite requests from the same child process, and replaces one killed at the time limit", async () => {
    const sqlite = h.app.sqlConsole.sqlite!;
    await run("SELECT 1 AS one");
    const before = sqlite.stats();
    expect((await run("SELECT 2 AS two")).body.rows).toEqual([[2]]);
    expect((await run("SELECT 3 AS three")).body.rows).toEqual([[3]]);
    expect(sqlite.stats()).toEqual(before);
    expect(before.pids.length).toBeLessThanOrEqual(2);
    expect((await run(HEAVY)).body.errors?.[0]?.code).toBe("time_limit");
    expect((await run("SELECT 4 AS four")).body.rows).toEqual([[4]]);
    expect(sqlite.stats().started).toBe(before.started + 1);
  }, 20_000);
});
