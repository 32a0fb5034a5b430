// autocannon ships no types and @types/autocannon is not installed; this covers the slice the bench uses.
declare module "autocannon" {
  type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer };

  type Options = {
    url: string;
    connections?: number;
    /** Requests per second over all connections. */
    overallRate?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: (RawRequest & { setupRequest?: (req: RawRequest, context: object) => RawRequest })[];
  };

  type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; total: number; p50: number; p90: number; p99: number };

  export type Result = {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  };

  const autocannon: (options: Options) => Promise<Result>;
  export default autocannon;
}
