// Pre-flight checks (a benchmark of error responses is worthless) and the autocannon runs.
import { isDeepStrictEqual } from "node:util";
import autocannon from "autocannon";
import type { Child } from "./child";
import type { BenchRequest, Workload } from "./workloads";

export type LoadResult = {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

const send = async (child: Child, req: BenchRequest, apiKey: string) => {
  const res = await fetch(child.url + req.path, {
    method: req.method,
    headers: { "x-api-key": apiKey, "content-type": "application/json", ...req.headers },
    body: req.body === undefined ? undefined : typeof req.body === "string" ? req.body : new Uint8Array(req.body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, text: bytes.toString("utf8"), bytes };
};

const shapeOf = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(shapeOf) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)])) : typeof value;

/**
 * Sends the workload's fixed request to Tabula and to the ceiling; throws unless both answer with the
 * expected status and the same JSON (reads) or the same JSON shape (writes). Returns Tabula's row count.
 */
export const checkWorkload = async (w: Workload, base: string, tabula: Child, ceiling: Child, apiKey: string) => {
  const request = w.sample(base);
  const answers = [await send(tabula, request, apiKey), await send(ceiling, request, apiKey)];
  answers.forEach(({ status, text }, i) => {
    if (status !== w.status) {
      throw new Error(`${w.id} check failed: ${i ? "ceiling" : "tabula"} answered ${request.method} ${request.path} with ${status}, expected ${w.status}: ${text.slice(0, 500)}`);
    }
  });
  if (w.bytes) {
    if (!answers[0].bytes.equals(answers[1].bytes)) throw new Error(`${w.id} check failed: Tabula and the ceiling serve different bytes (${answers[0].bytes.length} and ${answers[1].bytes.length}).`);
    return 1;
  }
  const [mine, theirs] = answers.map((a) => JSON.parse(a.text) as unknown);
  const same = w.compareBodies ? isDeepStrictEqual(mine, theirs) : isDeepStrictEqual(shapeOf(mine), shapeOf(theirs));
  if (!same) throw new Error(`${w.id} check failed: Tabula and the ceiling disagree.\ntabula:  ${answers[0].text.slice(0, 400)}\nceiling: ${answers[1].text.slice(0, 400)}`);
  return Array.isArray(mine) ? mine.length : 1;
};

/** `child`: any server by its URL (bench/peers.ts runs the peers with it too). */
export const runLoad = async (
  child: Pick<Child, "url">,
  w: Pick<Workload, "next">,
  base: string,
  apiKey: string,
  opts: { seconds: number; connections: number; rate?: number },
): Promise<LoadResult> => {
  const result = await autocannon({
    url: child.url,
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    requests: [
      {
        setupRequest: (req) => {
          const next = w.next(base);
          return { ...req, ...next, headers: { ...req.headers, ...next.headers } };
        },
      },
    ],
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, Number(s.count)]));
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
};
