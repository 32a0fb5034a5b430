import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { App } from "../app-type";
import type { SessionResolver } from "../mgmt/handle-management-request";
import { serveDataPath, serveManagementPath } from "../mcp/serve-paths";
import { handleUploadRequest, isUploadPath } from "../api/handle-upload-request";
import { type CoreRequest, type CoreResponse, isStreamedBody, json, MAX_BODY_BYTES, takesStreamedBody } from "../http/core-types";
import { docsInstanceForHostNow } from "../docs/docs-hosts";
import { handleDocsHostRequest, handleDocsRequest } from "../docs/serve-docs";
import { handleOpsRequest } from "../ops/handle-ops-request";
import { observeCoreRequest, observeRequest } from "../ops/observe-request";
import { OPS_PATHS } from "../ops/route-class";
import type { TrustProxy } from "../http/client-address";
import { clientAddressOf } from "../http/client-address";
import { canonicalTarget } from "../http/canonical-path";

const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

/**
 * How long the server keeps an idle keep-alive connection: longer than the idle timeouts of load balancers (60 s)
 * and of HTTP clients, so a client retires an idle connection itself. With Node's default of 5 s, the server could
 * close a connection at the moment a client reused it, and the client's request failed with ECONNRESET.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

const readBody = (req: IncomingMessage): Promise<{ body?: string; tooLarge?: boolean }> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      resolve({ tooLarge: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.resume();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined }));
    req.on("error", reject);
  });

/** The core request of `req` with its body already read (`body`), or none. */
const coreRequestOf = (req: IncomingMessage, requestId: string, trust: TrustProxy | undefined, read: { body?: string; tooLarge?: boolean }, upload: boolean): CoreRequest => {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const proto = (req.headers["x-forwarded-proto"] as string | undefined)?.split(",")[0] ?? "http";
  return {
    method: req.method ?? "GET",
    pathname: q === -1 ? url : url.slice(0, q),
    query: new URLSearchParams(q === -1 ? "" : url.slice(q + 1)),
    rawQuery: q === -1 ? "" : url.slice(q + 1),
    header: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(", ") : v;
    },
    body: read.body,
    bodyTooLarge: read.tooLarge,
    bodyStream: upload ? req : undefined,
    origin: `${proto}://${req.headers.host ?? "localhost"}`,
    clientAddress: clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"] as string | undefined, trust),
    requestId,
  };
};

const NO_BODY = { body: undefined, tooLarge: false };

/**
 * The core request of `req`; with `streamed`, the body is left unread for a handler that streams it. A request
 * that has no body to read is made at once (no promise).
 */
const toCoreRequest = (req: IncomingMessage, requestId: string, trust: TrustProxy | undefined, streamed = false): CoreRequest | Promise<CoreRequest> => {
  const method = req.method ?? "GET";
  if (streamed || BODYLESS.has(method)) return coreRequestOf(req, requestId, trust, NO_BODY, false);
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  // Uploads (multipart) and a backup archive (POST /api/v1/databases/restore) are read as they arrive.
  const upload = isStreamedBody(req.headers["content-type"]) || takesStreamedBody(method, q === -1 ? url : url.slice(0, q));
  if (upload) return coreRequestOf(req, requestId, trust, NO_BODY, true);
  return readBody(req).then((read) => coreRequestOf(req, requestId, trust, read, false));
};

/** A streamed body on node:http: each write waits for `drain` when the socket's buffer is full. */
const sendStream = async (res: ServerResponse, out: CoreResponse, stream: NonNullable<CoreResponse["stream"]>) => {
  const closed = new AbortController();
  res.once("close", () => closed.abort());
  res.writeHead(out.status, out.headers);
  res.flushHeaders();
  const write = (text: string | Uint8Array) =>
    new Promise<void>((resolve) => {
      if (closed.signal.aborted || res.write(text)) return resolve();
      const done = () => {
        res.off("drain", done);
        closed.signal.removeEventListener("abort", done);
        resolve();
      };
      res.once("drain", done);
      closed.signal.addEventListener("abort", done);
    });
  try {
    await stream({ write, signal: closed.signal });
  } finally {
    res.end();
  }
};

/**
 * Writes `out`. With `requestId` (a request observed without its header set, observeCoreRequest), the id joins
 * the headers given to writeHead: node then takes them as they are instead of through setHeader one by one.
 */
export const sendCoreResponse = (res: ServerResponse, out: CoreResponse, requestId?: string) => {
  if (requestId !== undefined && !out.file && !out.stream && out.body !== undefined) {
    res.writeHead(out.status, { "x-request-id": requestId, ...out.headers, "content-length": Buffer.byteLength(out.body) });
    return void res.end(out.body);
  }
  if (requestId !== undefined) res.setHeader("x-request-id", requestId);
  if (out.file) {
    res.writeHead(out.status, out.headers);
    return void pipeline(out.file, res).catch(() => res.destroy());
  }
  if (out.stream) return void sendStream(res, out, out.stream).catch(() => res.destroy()); // the stream logs its own failures
  res.writeHead(out.status, out.body === undefined ? out.headers : { ...out.headers, "content-length": Buffer.byteLength(out.body) });
  res.end(out.body);
};

const isOpsPath = (url: string) => {
  const q = url.indexOf("?");
  return OPS_PATHS.has(q === -1 ? url : url.slice(0, q));
};

/**
 * Serves /v1/* (data API), /api/v1/* (management API), /docs/* (public docs) and the ops paths (/healthz,
 * /readyz, /metrics) straight from the cores on node:http, each with its request id and log line, and every
 * path of a verified custom docs domain (its docs, or 404: nothing else of the app). Returns false for any
 * other path, which the caller hands to Next.
 */
export const createNodeHandler = (app: App, session?: SessionResolver) => async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
  // Every alias of a path (`/./v1`, `//v1`, `%2e`) meets the same route, checks and limiters; Next sees it too.
  const canonical = canonicalTarget(req.url ?? "/");
  if (canonical === null) {
    observeRequest(req, res, app.metrics);
    sendCoreResponse(res, json(404, { error: "not_found", message: "No such path." }));
    return true;
  }
  if (req.url !== canonical) req.url = canonical;
  const url = canonical;
  const trust = app.config.trustProxy;
  const found = docsInstanceForHostNow(app, req.headers.host);
  const docsHost = found instanceof Promise ? await found : found;
  if (docsHost) {
    sendCoreResponse(res, await handleDocsHostRequest(app, await toCoreRequest(req, observeRequest(req, res, app.metrics), trust), docsHost));
    return true;
  }
  const isData = url.startsWith("/v1/");
  const isManagement = !isData && url.startsWith("/api/v1/");
  const isDocs = !isData && !isManagement && url.startsWith("/docs/");
  const isOps = !isData && !isManagement && !isDocs && isOpsPath(url);
  if (!isData && !isManagement && !isDocs && !isOps) return false;
  if (isData && isUploadPath(url.split("?")[0])) {
    const core = await toCoreRequest(req, observeRequest(req, res, app.metrics), trust, true);
    await handleUploadRequest(app, core, req, res, (out) => sendCoreResponse(res, out));
    return true;
  }
  const requestId = observeCoreRequest(req, res, app.metrics);
  const made = toCoreRequest(req, requestId, trust);
  const core = made instanceof Promise ? await made : made;
  const out = isData ? await serveDataPath(app, core)
    : isManagement ? await serveManagementPath(app, core, session)
    : isDocs ? await handleDocsRequest(app, core)
    : await handleOpsRequest(app, core);
  // A streamed body refused before its end: the rest is read and dropped, so the answer reaches the client and
  // the connection can take its next request. A reader that stopped (an async iterator) leaves its 'readable'
  // listener behind, and resume() does nothing while one is attached.
  if (core.bodyStream && !req.readableEnded) {
    req.removeAllListeners("readable");
    req.resume();
  }
  sendCoreResponse(res, out, requestId);
  return true;
};
