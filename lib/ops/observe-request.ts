import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Metrics } from "./metrics";
import { logger, logRequest } from "./logger";
import { routeClassOf } from "./route-class";

/** An incoming X-Request-Id is kept when it is a plain token (a proxy's id); anything else gets a fresh one. */
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

const requestIdFrom = (header: string | string[] | undefined) =>
  typeof header === "string" && REQUEST_ID_RE.test(header) ? header : randomUUID();

const REQUEST_ID = Symbol("requestId");
type Observed = ServerResponse & { [REQUEST_ID]?: string };

/** The request id observeRequest or observeCoreRequest gave `res`'s request. */
export const requestIdOf = (res: ServerResponse): string | undefined => {
  const header = res.getHeader("x-request-id");
  return (res as Observed)[REQUEST_ID] ?? (typeof header === "string" ? header : undefined);
};

const logWhenDone = (req: IncomingMessage, res: ServerResponse, id: string, metrics: Metrics | undefined) => {
  const started = performance.now();
  // Nothing to write or count (LOG_LEVEL above info, metrics off): spare the hot path the listener.
  if (!metrics && !logger.isLevelEnabled("info")) return;
  res.once("close", () => {
    const ms = performance.now() - started;
    const url = req.url ?? "/";
    const route = routeClassOf(url);
    const q = url.indexOf("?");
    logRequest({ reqId: id, method: req.method ?? "GET", route, path: q === -1 ? url : url.slice(0, q), status: res.statusCode, ms: Math.round(ms * 10) / 10, aborted: !res.writableFinished });
    metrics?.observe(route, res.statusCode, ms / 1000);
  });
};

/**
 * Gives the request its id (echoed as X-Request-Id) and, once the response is done or the client has gone,
 * writes its one log line and counts it in the metrics. Returns the id, for error logs on the way.
 */
export const observeRequest = (req: IncomingMessage, res: ServerResponse, metrics?: Metrics): string => {
  const id = requestIdFrom(req.headers["x-request-id"]);
  res.setHeader("x-request-id", id);
  logWhenDone(req, res, id, metrics);
  return id;
};

/** observeRequest for a core response: its sender (sendCoreResponse with the id) writes the X-Request-Id header. */
export const observeCoreRequest = (req: IncomingMessage, res: ServerResponse, metrics?: Metrics): string => {
  const id = requestIdFrom(req.headers["x-request-id"]);
  (res as Observed)[REQUEST_ID] = id;
  logWhenDone(req, res, id, metrics);
  return id;
};
