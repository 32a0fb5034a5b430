// SQLite list, join and count reads run on reader threads (lib/db/readers). SQLite only: MariaDB has no
// such threads (its server runs each query on its own connection thread already).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleDataRequest } from "../../lib/api/handle-data-request";
import { listRecords } from "../../lib/api/read-records";
import { indexTable, indexTableForUsers } from "../../lib/api/table-index";
import { inWriteTransaction } from "../../lib/api/write/transaction";
import { type App, createApp } from "../../lib/app";
import { createNodeHandler } from "../../lib/transport/node-adapter";
import { webHandler } from "../../lib/http/web-adapter";
import { loadSchema } from "../../lib/meta/load-schema";
import { type Harness, startHarness } from "../helpers/harness";
import { createDatabase, insert } from "../contract/contract-helpers";

const EVERY_TYPE = [
  { name: "owners", columns: [{ name: "name", type: "varchar", length: 40 }] },
  {
    name: "items",
    columns: [
      { name: "name", type: "varchar", length: 40 },
      { name: "body", type: "text" },
      { name: "qty", type: "int" },
      { name: "big", type: "bigint" },
      { name: "price", type: "decimal", precision: 12, scale: 2 },
      { name: "ratio", type: "float" },
      { name: "active", type: "boolean" },
      { name: "born", type: "date" },
      { name: "seen_at", type: "datetime" },
      { name: "data", type: "json" },
      { name: "secret", type: "password" },
      { name: "status", type: "dropdown", options: ["draft", "live"] },
      { name: "owner_id", type: "reference", references: "owners" },
    ],
  },
];

const ROWS = [
  { name: "Ünïcode 漢字 😀", body: "", qty: -2147483648, big: 9007199254740991, price: 9999999999.99, ratio: -0.5, active: true, born: "1970-01-01", seen_at: "2024-02-29T23:59:59.999Z", data: { a: [1, "x", null, { b: true }] }, secret: "pw-1", status: "live", owner_id: 1 },
  { name: "plain", body: "x".repeat(5000), qty: 2147483647, big: -9007199254740991, price: -0.01, ratio: 1e-300, active: false, born: "2099-12-31", seen_at: "2000-01-01T00:00:00.000Z", data: "just a string", secret: "pw-2", status: "draft", owner_id: 2 },
  { name: null, body: null, qty: null, big: null, price: null, ratio: null, active: null, born: null, seen_at: null, data: null, status: null, owner_id: null },
  { name: "widget 12", qty: 0, big: 0, price: 0, ratio: 1.7976931348623157e308, active: true, data: [], owner_id: 1 },
];

/** Queries below whose page has another after it (a Link with `_after`). */
const PAGED = new Set(["?_limit=1", "?_sort=-price&_limit=2", "?_sort=born,-id&_limit=1&_offset=1", "?_select=name,secret,seen_at&_limit=3"]);

const QUERIES = ["", "?_sort=-id", "?_sort=name,-price", "?name_ilike=ÜNÏ", "?name_like=widget", "?active=true&qty_gte=0", "?price_lt=1&_limit=2&_offset=1", "?big_null=true", "?status=live"];

describe.each(["node", "route"] as const)("reader threads via %s: same answers as the main thread", (adapter) => {
  let h: Harness;
  let base = "";
  let mainThreadOnly: App;
  let askMainThread: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    h = await startHarness("sqlite", adapter);
    base = `/v1/${await createDatabase(h, "Parity", EVERY_TYPE)}`;
    await insert(h, `${base}/owners`, [{ name: "Ann" }, { name: "Bob" }]);
    await insert(h, `${base}/items`, ROWS);
    // The same files served by an app with no reader threads: what the main thread answers.
    mainThreadOnly = await createApp({ ...h.app.config, sqliteReaders: 0 });
    askMainThread = webHandler(async () => mainThreadOnly, handleDataRequest);
  });

  afterAll(async () => {
    await mainThreadOnly?.close();
    await h?.close();
  });

  it.each(QUERIES)("GET /items%s is byte for byte the same, X-Total-Count included", async (query) => {
    const headers = { "x-api-key": h.accountKey, prefer: "count=exact" };
    const threaded = await h.request("GET", `${base}/items${query}`, { headers: { prefer: "count=exact" } });
    const main = await askMainThread(new Request(`http://tabula.test${base}/items${query}`, { headers }));
    expect(threaded.status).toBe(200);
    expect(main.status).toBe(200);
    expect(threaded.text).toBe(await main.text());
    expect(threaded.headers.get("x-total-count")).toBe(main.headers.get("x-total-count"));
    expect(Number(threaded.headers.get("x-total-count"))).toBeGreaterThan(0);
  });

  // Without `_expand` a page is shaped into its JSON text where it is read (scanPage, lib/db/page-json.mjs); with
  // it, and on MariaDB, from row objects (finishPage). Both must give the same bytes, the Link cursor included.
  it.each([...QUERIES, "?_limit=1", "?_sort=-price&_limit=2", "?_sort=born,-id&_limit=1&_offset=1", "?_select=name,secret,seen_at&_limit=3", "?_select=data"])(
    "GET /items%s shaped where it is read is byte for byte the page made from row objects, for keys and for users",
    async (query) => {
      const schema = (await loadSchema(h.app, base.split("/")[2]))!;
      const table = schema.tables.get("items")!;
      const udb = h.app.engine.userDb(schema.physical);
      expect(udb.scanPage).toBeTypeOf("function");
      const fromObjects = { ...udb, scanPage: undefined };
      const params = new URLSearchParams(query.slice(1));
      const req = { origin: "http://tabula.test", pathname: `${base}/items`, query: params, header: () => undefined };
      for (const index of [indexTable(table), indexTableForUsers(table)]) {
        const shaped = await listRecords({ udb, schema, index, req });
        const made = await listRecords({ udb: fromObjects, schema, index, req });
        expect(shaped.status).toBe(200);
        expect(made.status).toBe(200);
        expect(shaped.body).toBe(made.body);
        expect(shaped.headers).toEqual(made.headers);
        expect(JSON.parse(shaped.body!).length).toBeGreaterThan(0);
      }
      const { headers } = await listRecords({ udb, schema, index: indexTable(table), req });
      expect(headers.link !== undefined).toBe(PAGED.has(query));
      if (query.startsWith("?_select=name,secret")) expect((await listRecords({ udb, schema, index: indexTableForUsers(table), req })).body).not.toContain("secret");
    },
  );

  it("a join page is the same too", async () => {
    const instance = base.split("/")[2];
    const join = await h.request("POST", `/api/v1/databases/${instance}/joins`, {
      body: { name: "owned", base: "items", joins: [{ table: "owners", on: [["items.owner_id", "owners.id"]] }], columns: [{ column: "items.name", as: "item" }, { column: "items.data", as: "data" }, { column: "owners.name", as: "owner" }] },
    });
    expect(join.status, join.text).toBe(201);
    const threaded = await h.request("GET", `${base}/owned?_sort=-item`);
    const main = await askMainThread(new Request(`http://tabula.test${base}/owned?_sort=-item`, { headers: { "x-api-key": h.accountKey } }));
    expect(threaded.body).toHaveLength(3);
    expect(threaded.text).toBe(await main.text());
  });
});

describe("reader threads: raw rows", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness("sqlite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("come back with the same JavaScript types as on the main thread: numbers, strings, Buffers, nulls", async () => {
    await h.app.engine.createUserDb("raw.sqlite");
    const udb = h.app.engine.userDb("raw.sqlite");
    await sql`CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)`.execute(udb.db);
    await sql`INSERT INTO t VALUES (9007199254740993, 0.1, 'ü😀', X'00FF10', NULL), (-1, -0.0, '', X'', 7)`.execute(udb.db);
    const query = sql`SELECT * FROM t ORDER BY rowid`;
    expect(udb.scan).toBeTypeOf("function");
    const threaded = await udb.scan!(query.compile(udb.db));
    const main = (await query.execute(udb.db)).rows;
    expect(isDeepStrictEqual(threaded, main)).toBe(true);
    expect(Buffer.isBuffer(threaded[0].b)).toBe(true);
    expect(threaded[0].b).toEqual(Buffer.from([0, 255, 16]));
    expect(Buffer.isBuffer(threaded[1].b)).toBe(true);
  });

  it("keep SQLite's error class and code when a read fails on a reader thread", async () => {
    const udb = h.app.engine.userDb("raw.sqlite");
    const query = sql`SELECT nope FROM t`;
    const [threaded, main] = await Promise.all([udb.scan!(query.compile(udb.db)).catch((e: unknown) => e), query.execute(udb.db).catch((e: unknown) => e)]);
    expect(threaded).toBeInstanceOf(Error);
    expect([(threaded as Error).constructor.name, (threaded as Error).message, (threaded as { code?: string }).code]).toEqual([
      (main as Error).constructor.name,
      (main as Error).message,
      (main as { code?: string }).code,
    ]);
  });

  it("are never used inside a write: a write's reads stay on its own connection", async () => {
    const udb = h.app.engine.userDb("raw.sqlite");
    const seen: unknown[] = [];
    expect(udb.scan).toBeTypeOf("function");
    await inWriteTransaction(udb, async (tx) => void seen.push(tx.scan));
    expect(seen).toEqual([undefined]);
  });
});

describe("a scan on a reader thread does not hold up a by-id read", () => {
  /**
   * Server-side events in order: when each request arrived at the handler and when it was answered. The by-id
   * read is sent only once all scans have arrived, so on one thread it would have to wait for a whole scan.
   */
  const race = async (readers: number) => {
    const h = await startHarness("sqlite");
    const app = await createApp({ ...h.app.config, sqliteReaders: readers });
    const events: string[] = [];
    const handle = createNodeHandler(app);
    let arrived = 0;
    let allArrived!: () => void;
    const scansArrived = new Promise<void>((resolve) => (allArrived = resolve));
    const server = http.createServer(async (req, res) => {
      const kind = req.url!.includes("_ilike") ? "scan" : "byId";
      events.push(`${kind} arrived`);
      if (kind === "scan" && ++arrived === SCANS) allArrived();
      await handle(req, res);
      events.push(`${kind} answered`);
    });
    try {
      const instance = await createDatabase(h, "Race", [{ name: "pages", columns: [{ name: "body", type: "text" }] }]);
      const schema = (await loadSchema(app, instance))!;
      // 200,000 rows of 100 characters; a non-ASCII _ilike matches none and calls a function on every row.
      await sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)
        INSERT INTO pages (body, created_at, updated_at) SELECT printf('%.100c', 'a') || x, '2024-01-01 00:00:00.000', '2024-01-01 00:00:00.000' FROM c`.execute(app.engine.userDb(schema.physical).db);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/${instance}/pages`;
      const get = (path: string, prefer?: string) =>
        fetch(url + path, { headers: { "x-api-key": h.accountKey, ...(prefer ? { prefer } : {}) } }).then(async (r) => ({ status: r.status, body: await r.json(), total: r.headers.get("x-total-count") }));
      const scans = Array.from({ length: SCANS }, () => get("?body_ilike=%C3%BCber", "count=exact"));
      await scansArrived;
      const byId = await get("/12345");
      const scanned = await Promise.all(scans);
      expect(byId).toMatchObject({ status: 200, body: { id: 12345, body: `${"a".repeat(100)}12345` } });
      expect(scanned.map((s) => [s.status, s.body, s.total])).toEqual(Array.from({ length: SCANS }, () => [200, [], "0"]));
      return events;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await h.close();
    }
  };
  const SCANS = 4;
  const answeredBeforeById = (events: string[]) => events.slice(0, events.indexOf("byId answered")).filter((e) => e === "scan answered").length;

  it("should allow: with reader threads the by-id read is answered while every scan is still running", async () => {
    const events = await race(2);
    expect(events.indexOf("byId arrived")).toBeGreaterThan(events.lastIndexOf("scan arrived"));
    expect(answeredBeforeById(events)).toBe(0);
  }, 120_000);

  it("should block (the same race with SQLITE_READERS=0): the by-id read waits for scans on the main thread", async () => {
    const events = await race(0);
    expect(answeredBeforeById(events)).toBeGreaterThan(0);
  }, 120_000);
});

describe("reader threads end with the app", () => {
  it("app.close() stops them and closes their connections", async () => {
    const h = await startHarness("sqlite");
    // This process's descriptors on the install's files (other files' servers in this worker open and close their own).
    const dir = fs.realpathSync(h.app.config.dataDir);
    const fds = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${dir}/`);
        } catch {
          return false; // closed while listed
        }
      }).length;
    const before = fds();
    const instance = await createDatabase(h, "Close", [{ name: "notes", columns: [{ name: "n", type: "int" }] }]);
    await insert(h, `/v1/${instance}/notes`, [{ n: 1 }, { n: 2 }]);
    // Enough list reads at once that both reader threads open the database.
    const pages = await Promise.all(Array.from({ length: 8 }, () => h.request("GET", `/v1/${instance}/notes`)));
    expect(pages.map((p) => p.body.length)).toEqual(Array(8).fill(2));
    expect(fds()).toBeGreaterThan(before);
    await h.close();
    expect(fds()).toBe(0);
  });
});
