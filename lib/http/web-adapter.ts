import { Readable } from "node:stream";
import type { App } from "../app-type";
import type { CoreRequest, CoreResponse } from "./core-types";
import { isStreamedBody, MAX_BODY_BYTES, takesStreamedBody } from "./core-types";
import { errorResponse } from "./error-response";
import { notFound } from "../errors";
import { canonicalPath } from "./canonical-path";
import { clientAddressFromHeaders, type TrustProxy } from "./client-address";

const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

/**
 * A web Request (Next route handlers) → the core request shape, its path canonical as server.ts makes it; with
 * `streamed`, the body is left unread for a handler that streams it.
 */
export const fromWebRequest = async (request: Request, trust?: TrustProxy, streamed = false): Promise<CoreRequest> => {
  const url = new URL(request.url);
  const pathname = canonicalPath(url.pathname);
  if (pathname === null) throw notFound("No such path.");
  let body: string | undefined;
  let bodyTooLarge = false;
  let bodyStream: CoreRequest["bodyStream"];
  // Uploads (multipart) and a backup archive (POST /api/v1/databases/restore) are read as they arrive.
  const upload = !streamed && !BODYLESS.has(request.method) && (isStreamedBody(request.headers.get("content-type")) || takesStreamedBody(request.method, pathname));
  if (upload) bodyStream = request.body ? Readable.fromWeb(request.body as import("node:stream/web").ReadableStream) : Readable.from([]);
  else if (!streamed && !BODYLESS.has(request.method)) {
    if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) bodyTooLarge = true;
    else {
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.byteLength > MAX_BODY_BYTES) bodyTooLarge = true;
      else if (bytes.byteLength > 0) body = new TextDecoder().decode(bytes);
    }
  }
  return {
    method: request.method,
    pathname,
    query: url.searchParams,
    rawQuery: url.search.slice(1),
    header: (name) => request.headers.get(name) ?? undefined,
    body,
    bodyTooLarge,
    bodyStream,
    origin: request.headers.get("x-forwarded-host") ? `${request.headers.get("x-forwarded-proto") ?? "http"}://${request.headers.get("x-forwarded-host")}` : url.origin,
    // Route handlers see no socket: the address server.ts marked, or X-Forwarded-For only as TRUST_PROXY allows.
    clientAddress: clientAddressFromHeaders((name) => request.headers.get(name), trust),
  };
};

/** A streamed body as a ReadableStream: a write waits while the reader's queue is full; cancel stops it. */
const webStream = (stream: NonNullable<CoreResponse["stream"]>) => {
  const closed = new AbortController();
  const encoder = new TextEncoder();
  let pulled: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = async (chunk: string | Uint8Array) => {
        if (closed.signal.aborted) return;
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
        if ((controller.desiredSize ?? 1) <= 0) await new Promise<void>((resolve) => (pulled = resolve));
      };
      void stream({ write, signal: closed.signal }).catch(() => undefined).finally(() => {
        if (!closed.signal.aborted) controller.close();
      });
    },
    pull() {
      pulled?.();
      pulled = undefined;
    },
    cancel() {
      closed.abort();
      pulled?.();
    },
  }, { highWaterMark: 16 });
};

export const toWebResponse = (out: CoreResponse) =>
  new Response(
    out.file ? (Readable.toWeb(out.file as Readable) as ReadableStream<Uint8Array>) : out.stream ? webStream(out.stream) : (out.body ?? null),
    { status: out.status, headers: out.headers },
  );

/**
 * Route-handler adapter: `export const GET = webHandler(getApp, handleDataRequest)`. An app that cannot start
 * (its metadata store unreachable) answers like the cores do: 503 with Retry-After.
 */
export const webHandler =
  (getApp: () => Promise<App>, core: (app: App, req: CoreRequest) => Promise<CoreResponse>) =>
  async (request: Request): Promise<Response> => {
    try {
      const app = await getApp();
      return toWebResponse(await core(app, await fromWebRequest(request, app.config.trustProxy)));
    } catch (err) {
      return toWebResponse(errorResponse(err));
    }
  };
