// /metrics: 404 while metrics are off (the default); with METRICS=1 the Prometheus text exposition counts
// requests by route class and status, their latency, and the database handles; with a token, only a caller
// presenting it reads them. Both engines (the pool gauge differs by engine).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

/** The value of one sample line, e.g. `tabula_http_requests_total{route_class="data",status="200"}`. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe.each(ENGINES)("metrics on %s", (engine) => {
  describe("off by default", () => {
    let h: Harness;
    beforeAll(async () => void (h = await startHarness(engine, "node")));
    afterAll(async () => h?.close());

    it("GET /metrics is 404 with the contract's error body", async () => {
      const reply = await h.request("GET", "/metrics", { key: null });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: "not_found", message: "Metrics are off; set METRICS=1 or METRICS_TOKEN to serve them." });
    });
  });

  describe("METRICS=1", () => {
    let h: Harness;
    let db: string;
    beforeAll(async () => {
      h = await startHarness(engine, "node", { config: { metrics: {} } });
      db = await createDatabase(h, "metered", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
    });
    afterAll(async () => h?.close());

    it("counts requests by route class and status, with a latency histogram and the database handles", async () => {
      for (let i = 0; i < 3; i++) expect((await h.request("GET", `/v1/${db}/items`)).status).toBe(200);
      expect((await h.request("GET", `/v1/${db}/nosuch`)).status).toBe(404);
      expect((await h.request("GET", `/v1/${db}/openapi.json`)).status).toBe(200);
      const reply = await h.request("GET", "/metrics", { key: null });
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = reply.text;
      expect(sample(text, 'tabula_http_requests_total{route_class="data",status="200"}')).toBe(3);
      expect(sample(text, 'tabula_http_requests_total{route_class="data",status="404"}')).toBe(1);
      expect(sample(text, 'tabula_http_requests_total{route_class="docs",status="200"}')).toBe(1);
      expect(sample(text, 'tabula_http_requests_total{route_class="management",status="201"}')).toBe(1);
      expect(sample(text, 'tabula_http_request_duration_seconds_count{route_class="data"}')).toBe(4);
      expect(sample(text, 'tabula_http_request_duration_seconds_bucket{le="+Inf",route_class="data"}')).toBe(4);
      expect(text).toContain("# TYPE tabula_http_request_duration_seconds histogram");
      expect(text).toContain("tabula_process_resident_memory_bytes");
      if (engine === "mysql") {
        expect(sample(text, 'tabula_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'tabula_db_pool_connections{state="queued"}')).toBe(0);
      } else {
        expect(sample(text, "tabula_sqlite_open_databases")).toBe(2); // the metadata file and this database
      }
    });

    it("counts SQLite's COMMITs and the writes they stored (tests/kernel/group-commit.test.ts shows them shared)", async () => {
      const scrape = async () => (await h.request("GET", "/metrics", { key: null })).text;
      const before = await scrape();
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => h.request("POST", `/v1/${db}/items`, { body: { label: `x${i}` } }).then((r) => r.status)));
      expect(statuses).toEqual(Array(30).fill(201));
      const after = await scrape();
      if (engine === "mysql") {
        expect(sample(after, "tabula_sqlite_commits_total") ?? 0).toBe(0); // MariaDB's writers commit on their own
        return;
      }
      const grew = (series: string) => sample(after, series)! - sample(before, series)!;
      expect(grew("tabula_sqlite_committed_writes_total")).toBe(30);
      expect(grew("tabula_sqlite_commits_total")).toBeGreaterThanOrEqual(1);
      expect(grew("tabula_sqlite_commits_total")).toBeLessThanOrEqual(30);
    });
  });

  describe("METRICS_TOKEN", () => {
    let h: Harness;
    beforeAll(async () => void (h = await startHarness(engine, "node", { config: { metrics: { token: "scrape-secret-1" } } })));
    afterAll(async () => h?.close());

    it("should block a scrape without the token or with another one", async () => {
      for (const headers of [{}, { authorization: "Bearer scrape-secret-2" }] as Record<string, string>[]) {
        const reply = await h.request("GET", "/metrics", { key: null, headers });
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual({ error: "unauthorized", message: "Send the metrics token as Authorization: Bearer <token>." });
      }
    });

    it("should allow a scrape with the token", async () => {
      const reply = await h.request("GET", "/metrics", { key: null, headers: { authorization: "Bearer scrape-secret-1" } });
      expect(reply.status).toBe(200);
      expect(reply.text).toContain("tabula_http_requests_total");
    });
  });
});

describe("health endpoints", () => {
  let h: Harness;
  beforeAll(async () => void (h = await startHarness(ENGINES.at(-1)!, "node")));
  afterAll(async () => h?.close());

  it("/healthz and /readyz answer 200 without credentials; other verbs are 405", async () => {
    expect(await h.request("GET", "/healthz", { key: null }).then((r) => [r.status, r.body])).toEqual([200, { status: "ok" }]);
    const ready = await h.request("GET", "/readyz", { key: null });
    expect([ready.status, ready.body]).toEqual([200, { status: "ready", engine: h.engine, events: "version-read" }]);
    const post = await h.request("POST", "/readyz", { key: null });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("/readyz is 503 while the process drains", async () => {
    h.app.draining = true;
    try {
      const reply = await h.request("GET", "/readyz", { key: null });
      expect([reply.status, reply.body, reply.headers.get("retry-after")]).toEqual([503, { error: "unavailable", message: "The server is shutting down." }, "5"]);
    } finally {
      h.app.draining = false;
    }
  });
});
