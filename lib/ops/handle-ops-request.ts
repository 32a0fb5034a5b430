// Operations endpoints: /healthz (the process answers), /readyz (it can read its metadata, its Galera node is
// Synced, and it is not shutting down), /metrics (Prometheus text, only when enabled).
import { timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import type { App } from "../app-type";
import { UNAVAILABLE_RETRY_SECONDS } from "../db/unavailable";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { json } from "../http/core-types";
import { readCredential } from "../http/credentials";
import { logger } from "./logger";

const READY_TIMEOUT_MS = 2_000;

const notReady = (message: string) =>
  json(503, { error: "unavailable", message }, { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS), "cache-control": "no-store" });

/** Why a Galera node cannot serve (not Synced with the cluster, or not ready: no quorum), or undefined. */
const galeraTrouble = async (app: App): Promise<string | undefined> => {
  const { rows } = await sql<{ Variable_name: string; Value: string }>`SHOW STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state_comment')`.execute(app.engine.meta);
  const status = new Map(rows.map((r) => [r.Variable_name, r.Value]));
  if (status.get("wsrep_ready") !== "ON") return "This database node is not part of the cluster's primary component (wsrep_ready OFF).";
  const state = status.get("wsrep_local_state_comment");
  return state === "Synced" ? undefined : `This database node is not in step with the cluster (${state ?? "unknown state"}).`;
};

/** A real metadata read (not `SELECT 1`, which a Galera node without quorum still answers) and, on Galera, its state. */
const probeMeta = async (app: App) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  try {
    const read = app.engine.meta.selectFrom("plans").select("name").limit(1).execute();
    return await Promise.race([read.then(() => (app.engine.galera ? galeraTrouble(app) : undefined)), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

const readiness = async (app: App): Promise<CoreResponse> => {
  if (app.draining) return notReady("The server is shutting down.");
  try {
    const trouble = await probeMeta(app);
    if (trouble) return notReady(trouble);
  } catch (err) {
    logger.warn({ err }, "readiness: the metadata store is unreachable");
    return notReady("The metadata store is unreachable.");
  }
  return json(200, { status: "ready", engine: app.engine.kind, events: app.eventLink() }, { "cache-control": "no-store" });
};

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const metricsText = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  const metrics = app.metrics;
  if (!metrics) return json(404, { error: "not_found", message: "Metrics are off; set METRICS=1 or METRICS_TOKEN to serve them." });
  const token = app.config.metrics?.token;
  if (token && !sameSecret(readCredential(req) ?? "", token)) {
    return json(401, { error: "unauthorized", message: "Send the metrics token as Authorization: Bearer <token>." }, { "WWW-Authenticate": 'Bearer realm="metrics"' });
  }
  return { status: 200, headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" }, body: await metrics.registry.metrics() };
};

/** Answers an ops path (see OPS_PATHS); GET and HEAD only. */
export const handleOpsRequest = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  if (req.method !== "GET" && req.method !== "HEAD") return json(405, { error: "method_not_allowed", message: "This path accepts GET, HEAD." }, { Allow: "GET, HEAD" });
  if (req.pathname === "/healthz") return json(200, { status: "ok" }, { "cache-control": "no-store" });
  if (req.pathname === "/readyz") return readiness(app);
  return metricsText(app, req);
};
