// A webhook attempt's outcome that loses a deadlock on MariaDB is written again, not dropped. Dropped, the attempt
// would stay `delivering` until its lease ran out (the timeout plus 30 s): the stall once seen when two processes
// shared the deliveries (cross-process.test.ts). The deadlock is forced: another transaction, heavier so that
// InnoDB picks the outcome's statement as the victim, holds one delivery row and then asks for the other.
import { createConnection } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { lookupWebhooks, type Outcome, recordOutcomes } from "../../lib/webhooks/attempt-delivery";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";

describe.skipIf(!process.env.TEST_MYSQL_URL)("webhook outcomes on mysql", () => {
  let h: Harness;
  let db: string;

  beforeAll(async () => {
    h = await startHarness("mysql", "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true, pollMs: 50 } } });
    db = await createDatabase(h, "outcomes", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
  }, 60_000);
  afterAll(async () => h?.close());

  it("an outcome whose UPDATE is chosen as a deadlock's victim is written on the next run of its transaction", async () => {
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: "http://127.0.0.1:9/unused" } });
    const meta = h.app.engine.meta;
    const now = new Date().toISOString();
    const leased = new Date(Date.now() + 600_000).toISOString(); // the dispatcher leaves leased rows alone
    const row = (n: number) => ({ webhook_id: hook.id, event_id: null, message_id: `msg_dl_${n}`, payload: `{"n":${n}}`, status: "delivering" as const, attempts: 1, next_attempt_at: now, claimed_until: leased, created_at: now, updated_at: now });
    await meta.insertInto("webhook_deliveries").values([row(1), row(2)]).execute();
    const [first, second] = await meta.selectFrom("webhook_deliveries").select(["id", "webhook_id", "message_id", "payload", "attempts"]).where("webhook_id", "=", hook.id).orderBy("id").execute();
    const targets = await lookupWebhooks(h.app, [hook.id]);
    const outcome = (c: typeof first): Outcome => ({
      claimed: { ...c, id: Number(c.id), attempts: 1 },
      ok: true,
      error: null,
      values: { status: "delivered", next_attempt_at: now, claimed_until: null, request_headers: "{}", response_status: 200, response_body: "ok", duration_ms: 1, error: null, updated_at: now },
    });

    const url = new URL(h.app.config.databaseUrl!);
    const other = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || "root"), password: decodeURIComponent(url.password), database: url.pathname.slice(1) });
    try {
      await other.query("CREATE TABLE deadlock_weight (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB");
      await other.query(`INSERT INTO deadlock_weight (id, v) VALUES ${Array.from({ length: 500 }, (_, i) => `(${i}, 0)`).join(", ")}`);
      await other.query("BEGIN");
      await other.query("UPDATE deadlock_weight SET v = v + 1"); // 500 rows changed: the cheaper victim is the outcome's UPDATE
      await other.query("SELECT id FROM webhook_deliveries WHERE id = ? FOR UPDATE", [second.id]);

      let settled: "written" | Error | undefined;
      const recording = recordOutcomes(h.app, [outcome(first), outcome(second)], targets).then(
        () => void (settled = "written"),
        (err: Error) => void (settled = err),
      );
      // The outcome's UPDATE holds the first row and waits for the second. The server is shared (other test files
      // run beside this one), so the wait looked for is on this install's own metadata schema.
      const table = `\`${url.pathname.slice(1)}\`.\`webhook_deliveries\``;
      const waiting = async () => {
        const status = String(((await other.query("SHOW ENGINE INNODB STATUS")) as unknown as [{ Status: string }[]])[0][0].Status);
        return status.split("\n").some((line) => line.includes(`of table ${table}`) && line.includes("waiting"));
      };
      for (let i = 0; i < 200 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 10));
      expect(await waiting()).toBe(true);
      // Now this transaction asks for the first row: a cycle, which InnoDB breaks by rolling back the lighter side,
      // the outcome's UPDATE (were it this one, the statement below would throw and fail the test).
      await other.query("UPDATE webhook_deliveries SET updated_at = updated_at WHERE id = ?", [first.id]);
      await other.query("COMMIT");
      await recording;

      expect(settled).toBe("written");
      const after = await meta.selectFrom("webhook_deliveries").select(["status", "response_status", "claimed_until"]).where("webhook_id", "=", hook.id).orderBy("id").execute();
      expect(after).toEqual([
        { status: "delivered", response_status: 200, claimed_until: null },
        { status: "delivered", response_status: 200, claimed_until: null },
      ]);
    } finally {
      await other.query("ROLLBACK").catch(() => undefined);
      await other.query("DROP TABLE IF EXISTS deadlock_weight").catch(() => undefined);
      await other.end();
    }
  });
});
