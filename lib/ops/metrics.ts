// Prometheus metrics (prom-client), made only when METRICS=1 or METRICS_TOKEN is set: requests by route class
// and status, their latency, and what the process holds open on its databases. Served at /metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Engine } from "../db/engine";
import type { RouteClass } from "./route-class";

export type Metrics = {
  registry: Registry;
  /** One finished request: its route class, status and duration in seconds. */
  observe: (routeClass: RouteClass, status: number, seconds: number) => void;
};

export const createMetrics = (engine: Engine): Metrics => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "tabula_" });
  const requests = new Counter({
    name: "tabula_http_requests_total",
    help: "HTTP requests answered, by route class and status",
    labelNames: ["route_class", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "tabula_http_request_duration_seconds",
    help: "Time from the request's arrival to the end of its response, by route class",
    labelNames: ["route_class"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: "tabula_db_pool_connections",
    help: "MySQL/MariaDB connections of this process (its two pools: reads and metadata, data writes): total open, free, and requests queued for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = engine.poolStats();
      if (stats.kind !== "mysql") return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "free" }, stats.free);
      this.set({ state: "queued" }, stats.queued);
    },
  });
  new Gauge({
    name: "tabula_sqlite_open_databases",
    help: "SQLite database files this process holds open (the metadata file included)",
    registers: [registry],
    collect() {
      const stats = engine.poolStats();
      if (stats.kind === "sqlite") this.set(stats.open);
    },
  });
  for (const [name, help, field] of [
    ["tabula_sqlite_commits_total", "SQLite COMMITs that stored data-API writes (group commit: the writes of one event-loop turn share one)", "commits"],
    ["tabula_sqlite_committed_writes_total", "SQLite data-API write transactions committed; divided by tabula_sqlite_commits_total, the writes per COMMIT", "writes"],
  ] as const) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = engine.poolStats();
        if (stats.kind !== "sqlite") return;
        this.reset();
        this.inc(stats[field]);
      },
    });
  }
  return {
    registry,
    observe: (routeClass, status, seconds) => {
      requests.inc({ route_class: routeClass, status: String(status) });
      duration.observe({ route_class: routeClass }, seconds);
    },
  };
};
