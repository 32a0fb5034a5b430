// Production server: /v1/*, /api/v1/* and the ops paths go straight to the cores on node:http (no Next.js
// request overhead); every other path (the dashboard) goes to Next, unless DASHBOARD=off (an API-only node).
// Next is loaded and prepared on the first request for it, so the APIs answer without waiting for it.
// SIGTERM drains: no new connections, requests in flight finish (up to SHUTDOWN_TIMEOUT_MS), pools close, exit 0.
import http from "node:http";
import { fileURLToPath } from "node:url";
import { getApp } from "./lib/app";
import { createSessionResolver } from "./lib/auth/resolve-session";
import { toErrorResponse } from "./lib/errors";
import { createNodeHandler, KEEP_ALIVE_TIMEOUT_MS, sendCoreResponse } from "./lib/transport/node-adapter";
import { CLIENT_HEADER, clientAddressOf, markClientAddress } from "./lib/http/client-address";
import { json } from "./lib/http/core-types";
import { endLog, logger } from "./lib/ops/logger";
import { observeRequest, requestIdOf } from "./lib/ops/observe-request";

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "0.0.0.0";
const dev = process.env.NODE_ENV !== "production";
const dashboard = process.env.DASHBOARD !== "off";
const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS || 25_000);

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>;

const startNext = async (): Promise<NodeHandler> => {
  const { default: next } = await import("next");
  const nextApp = next({ dev, dir: fileURLToPath(new URL(".", import.meta.url)), hostname, port });
  await nextApp.prepare();
  logger.info("dashboard ready");
  return nextApp.getRequestHandler();
};

/** The dashboard's handler: starts Next on its first request (again after a failed start); later ones share it. */
const lazyNext = (): NodeHandler => {
  let ready: Promise<NodeHandler> | undefined;
  return async (req, res) => {
    ready ??= startNext().catch((err: unknown) => {
      logger.error({ err }, "starting the dashboard failed");
      ready = undefined;
      throw err;
    });
    return (await ready)(req, res);
  };
};

const apiOnly: NodeHandler = async (_req, res) =>
  sendCoreResponse(res, json(404, { error: "not_found", message: "This node serves the APIs only (DASHBOARD=off)." }));

const main = async () => {
  const app = await getApp();
  const handleOther = dashboard ? lazyNext() : apiOnly;
  const handleCore = createNodeHandler(app, createSessionResolver(app));
  const inFlight = new Set<http.ServerResponse>();
  let onIdle = () => {};

  const server = http.createServer(async (req, res) => {
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      if (inFlight.size === 0) onIdle();
    });
    // While draining, every answer closes its connection so keep-alive clients reconnect elsewhere.
    if (app.draining) res.shouldKeepAlive = false;
    try {
      // The core handler also makes req.url canonical, so Next routes the same spelling.
      if (await handleCore(req, res)) return;
      // Next's route handlers see no socket: hand them the client's address, marked as this process's.
      req.headers[CLIENT_HEADER] = markClientAddress(clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"] as string | undefined, app.config.trustProxy));
      observeRequest(req, res, app.metrics);
      await handleOther(req, res);
    } catch (err) {
      const requestId = requestIdOf(res);
      const { status, body, headers } = toErrorResponse(err, requestId);
      if (!res.headersSent) res.writeHead(status, { ...headers, ...(requestId ? { "x-request-id": requestId } : {}), "content-type": "application/json" });
      res.end(JSON.stringify(body));
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.listen(port, hostname, () => {
    logger.info({ port, engine: app.config.engine, dataDir: app.config.engine === "sqlite" ? app.config.dataDir : undefined, dashboard }, `Tabula ready on http://localhost:${port}`);
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (app.draining) {
      logger.warn({ signal }, "second signal while draining: exiting now");
      void endLog().then(() => process.exit(1));
      return;
    }
    app.draining = true;
    logger.info({ signal, inFlight: inFlight.size, timeoutMs: shutdownTimeoutMs }, "shutting down: refusing new connections, finishing requests in flight");
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    let forced = false;
    const deadline = setTimeout(() => {
      forced = true;
      logger.warn({ inFlight: inFlight.size }, "shutdown deadline passed: closing the connections still open");
      server.closeAllConnections();
    }, shutdownTimeoutMs);
    // The pools close once the server has no connection left and every response has ended (its log line written).
    let serverClosed = false;
    let finished = false;
    const finish = () => {
      if (finished || inFlight.size > 0) return;
      // No request in flight: a connection still open has nothing to finish (a request head still arriving, a
      // keep-alive socket Node does not count as idle), so it does not hold the shutdown until the deadline.
      if (!serverClosed) return server.closeAllConnections();
      finished = true;
      clearTimeout(deadline);
      app
        .close()
        .catch((err: unknown) => logger.error({ err }, "closing the database pools failed"))
        .finally(() => {
          logger.info({ forced }, "stopped");
          void endLog().then(() => process.exit(forced ? 1 : 0));
        });
    };
    // Keep-alive connections between requests hold the server open: close the idle ones now, and every one left
    // once the last request in flight ends (finish).
    server.closeIdleConnections();
    onIdle = finish;
    server.close(() => {
      serverClosed = true;
      finish();
    });
    finish();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
};

main().catch((err) => {
  logger.fatal({ err }, "failed to start");
  void endLog().then(() => process.exit(1));
});
