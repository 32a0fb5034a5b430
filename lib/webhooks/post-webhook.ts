// One delivery attempt: POST to the checked address with a time limit over the whole exchange; the response
// body is kept up to 4 KiB. Redirects are not followed (a 3xx is a failed attempt).
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget } from "./target-address";

const MAX_RESPONSE_BYTES = 4096;

// Connections are kept for the next attempts to the same host and port: a pooled socket was opened to an
// address checked when it connected, so reuse skips only the handshake, never the check.
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 32 }), https: new https.Agent({ keepAlive: true, maxSockets: 32 }) };

export type AttemptResult = { status?: number; body?: string; error?: string; durationMs: number };

type PostInput = { url: string; headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean };

export const postWebhook = async ({ url, headers, body, timeoutMs, allowPrivate }: PostInput): Promise<AttemptResult> => {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "durationMs">): AttemptResult => ({ ...r, durationMs: Math.round((performance.now() - started) * 10) / 10 });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done({ error: "the URL is not valid" });
  }
  let resolved: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    resolved = await resolveTarget(target.hostname, allowPrivate);
  } catch (err) {
    return done({ error: `DNS lookup failed: ${(err as Error).message}` });
  }
  if ("refused" in resolved) return done({ error: `refused: ${resolved.refused}` });
  const { address, family } = resolved;
  // The socket connects to the address just checked, never to a second lookup's answer.
  const pinned: LookupFunction = (_host, options, callback) =>
    (options as { all?: boolean }).all ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]) : callback(null, address, family);
  const secure = target.protocol === "https:";
  const client = secure ? https : http;
  const deadline = started + timeoutMs;
  // A pooled connection the receiver closed while it sat idle fails as soon as it is written to (ECONNRESET before
  // any answer): the attempt is sent again once, on a new connection, within the same time limit. A new
  // connection's failure is the attempt's.
  const exchange = (pooled: boolean) =>
    new Promise<Omit<AttemptResult, "durationMs"> & { stale?: true }>((resolve) => {
      const agent = pooled ? (secure ? agents.https : agents.http) : false;
      const req = client.request(target, { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, lookup: pinned, agent });
      const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), Math.max(0, deadline - performance.now()));
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
        });
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", (err) => {
          clearTimeout(timer);
          resolve({ status: res.statusCode, error: err.message });
        });
      });
      req.on("error", (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve(pooled && req.reusedSocket && !answered && err.code === "ECONNRESET" ? { stale: true, error: err.message } : { error: err.message });
      });
      req.end(body);
    });
  const first = await exchange(true);
  if (!first.stale) return done(first);
  return done(await exchange(false));
};
