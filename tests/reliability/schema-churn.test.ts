// Schema changes under traffic: a loop adds and drops a column (nullable, then NOT NULL with a default, as
// MariaDB's ADD … DEFAULT / DROP DEFAULT and SQLite's table rebuild both do) while clients POST single and
// bulk records, some naming the churned column, and readers list and filter on it. One process, then two (a
// second server process on the same SQLite folder or MariaDB meta schema, which learns of the change only
// from the store). Every answer is a 2xx, a 409 schema_changed (retried by the client with the same body) or a
// 422; the rows stored are exactly the 2xx answers' rows: no 5xx, nothing written for a refusal, no duplicate
// from a retry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { createDatabase } from "../contract/contract-helpers";
import { type ChildServer, startChildServer } from "../limits/limits-fixture";

type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

const sender = (base: string, key: string): Send => async (method, path, body) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

const viaHarness = (h: Harness): Send => (method, path, body) => h.request(method, path, { body });

const CHURN_COLUMNS = [
  { name: "extra", type: "varchar", length: 20 },
  { name: "extra", type: "varchar", length: 20, nullable: false, default: "filled" },
];

type Tally = { statuses: Map<number, number>; stored: Set<string>; refused: Set<string>; retries: number; reads: number; bad: string[] };

/** One client: `count` POSTs (every fifth a bulk of two, every third naming `extra`), retrying each 409 once more. */
const client = async (send: Send, path: string, tag: string, count: number, tally: Tally) => {
  for (let i = 0; i < count; i++) {
    const titles = i % 5 === 0 ? [`${tag}-${i}-a`, `${tag}-${i}-b`] : [`${tag}-${i}`];
    const rows = titles.map((title) => (i % 3 === 0 ? { title, extra: "given" } : { title }));
    const body = rows.length > 1 ? rows : rows[0];
    let reply = await send("POST", path, body);
    for (let attempt = 0; reply.status === 409 && attempt < 20; attempt++) {
      tally.retries++;
      reply = await send("POST", path, body);
    }
    tally.statuses.set(reply.status, (tally.statuses.get(reply.status) ?? 0) + 1);
    if (reply.status === 201) titles.forEach((t) => tally.stored.add(t));
    else titles.forEach((t) => tally.refused.add(t));
    if (reply.status >= 500 || ![201, 409, 422].includes(reply.status)) tally.bad.push(`${reply.status} ${JSON.stringify(reply.body)}`);
    if (reply.status === 409) expect(reply.body).toMatchObject({ error: "schema_changed", retryable: true });
    if (reply.status === 422) expect(reply.body.error).toBe("validation_failed");
  }
};

describe.each(ENGINES)("schema churn under traffic (%s)", (engine) => {
  let h: Harness;
  let child: ChildServer;
  beforeAll(async () => {
    h = await startHarness(engine, "node");
    child = await startChildServer(h);
  }, 60_000);
  afterAll(async () => {
    await child?.stop();
    await h?.close();
  });

  const churnUnder = async (targets: Send[]) => {
    const db = await createDatabase(h, "churn", [{ name: "items", columns: [{ name: "title", type: "varchar", nullable: false, unique: true }] }]);
    const path = `/v1/${db}/items`;
    const columns = `/api/v1/databases/${db}/tables/items/columns`;
    const tally: Tally = { statuses: new Map(), stored: new Set(), refused: new Set(), retries: 0, reads: 0, bad: [] };
    let done = false;
    let changes = 0;
    const churn = async () => {
      while (!done) {
        const added = await h.request("POST", columns, { body: CHURN_COLUMNS[changes % 2] });
        expect(added.status, added.text).toBe(201);
        const dropped = await h.request("DELETE", `${columns}/extra`);
        expect(dropped.status, dropped.text).toBe(204);
        changes++;
      }
    };
    /** Reads (list, filtered on the churned column, and by id) while the column comes and goes: never a 5xx. */
    const reader = async (send: Send) => {
      while (!done) {
        for (const url of [`${path}?_limit=5&_sort=-id`, `${path}?extra_null=true&_limit=5`, `${path}/1`]) {
          const reply = await send("GET", url);
          if (![200, 404, 409, 422].includes(reply.status)) tally.bad.push(`GET ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
          tally.reads++;
        }
      }
    };
    const churning = churn();
    const readers = targets.map(reader);
    const clients = targets.flatMap((send, t) => [0, 1, 2].map((c) => client(send, path, `p${t}c${c}`, 60, tally)));
    await Promise.all(clients).finally(() => (done = true));
    await Promise.all([churning, ...readers]);

    const records = (await h.request("GET", `${path}?_limit=1000`)).body as { title: string }[];
    const titles = records.map((r) => r.title);
    expect(tally.bad, "no 5xx and nothing outside 201/409/422").toEqual([]);
    expect(changes, "the column was added and dropped during the traffic").toBeGreaterThan(2);
    expect(new Set(titles).size, "no duplicates").toBe(titles.length);
    expect(titles.filter((t) => tally.refused.has(t)), "no row for a refused write").toEqual([]);
    expect(new Set(titles)).toEqual(tally.stored);
    return { tally, changes, rows: titles.length };
  };

  it("one process: 0 5xx, rows stored = rows answered 201", async () => {
    const { tally, changes, rows } = await churnUnder([viaHarness(h)]);
    console.log(`[churn ${engine} 1 process] ${changes} add/drop cycles, statuses ${JSON.stringify([...tally.statuses])}, ${tally.retries} retries, ${rows} rows, ${tally.reads} reads`);
    expect(tally.statuses.get(201) ?? 0).toBeGreaterThan(50);
  }, 120_000);

  it("two processes: 0 5xx, rows stored = rows answered 201", async () => {
    const { tally, changes, rows } = await churnUnder([viaHarness(h), sender(child.base, h.accountKey)]);
    console.log(`[churn ${engine} 2 processes] ${changes} add/drop cycles, statuses ${JSON.stringify([...tally.statuses])}, ${tally.retries} retries, ${rows} rows, ${tally.reads} reads`);
    expect(tally.statuses.get(201) ?? 0).toBeGreaterThan(100);
  }, 180_000);
});
