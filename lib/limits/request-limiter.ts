// The data API's rate limit: requests per second per owner account, at its plan's rate, in fixed one-second
// windows (the burst is one second's worth). Counted by rate-limiter-flexible: in memory for one process, in
// Redis across processes when REDIS_URL is set, with a memory limiter as insurance while Redis is down.
//
// Each process takes its window's allowance in chunks (1/20 of the rate, at least 1) and serves a chunk from
// memory, so a generous plan costs one Redis round trip per chunk instead of one per request; small rates
// (up to 20/s) still ask Redis for every request. The processes together never pass the rate.
import type Redis from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { LruMap } from "../lru-map";

export type RateDecision = {
  allowed: boolean;
  limit: number;
  /** Requests left in this window (for several processes: at least this many). */
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
};

/**
 * This process's view of one account's window at one rate: tokens it may still hand out, and whether the
 * window is spent. A window of another rate is stale: a plan change counts afresh at the next request.
 */
type Window = { limit: number; end: number; tokens: number; remaining: number; exhausted: boolean };

/** Answers at once (no promise) while this process's window can decide; waits only for a reservation. */
export type RequestLimiter = (accountId: number, perSecond: number) => RateDecision | Promise<RateDecision>;

const CHUNKS_PER_WINDOW = 20;
/** Accounts whose window this process remembers; a forgotten window (one second long) is reserved afresh. */
export const MAX_WINDOWS = 10_000;

export const createRequestLimiter = (redis?: Redis): RequestLimiter => {
  const limiters = new Map<number, RateLimiterAbstract>();
  const windows = new LruMap<number, Window>(MAX_WINDOWS);
  // One reservation in flight per account: concurrent requests wait for it rather than each taking a chunk,
  // which would let one process's burst take the whole window from the others.
  const reserving = new Map<number, Promise<void>>();

  const limiterFor = (points: number) => {
    let limiter = limiters.get(points);
    if (!limiter) {
      const options = { points, duration: 1, keyPrefix: `tabula_rps_${points}` };
      limiter = redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      limiters.set(points, limiter);
    }
    return limiter;
  };

  const usable = (window: Window | undefined, limit: number, now: number): window is Window =>
    !!window && window.limit === limit && now < window.end && (window.tokens > 0 || window.exhausted);

  const decide = (window: Window, limit: number, now: number): RateDecision => {
    const reset = Math.max(1, Math.ceil((window.end - now) / 1000));
    if (window.tokens <= 0) return { allowed: false, limit, remaining: 0, reset };
    window.tokens--;
    return { allowed: true, limit, remaining: window.tokens + window.remaining, reset };
  };

  /** Takes a chunk of the window's allowance from the shared counter; a partly refused chunk keeps what was left. */
  const reserve = async (accountId: number, limit: number): Promise<Window> => {
    const chunk = redis ? Math.max(1, Math.floor(limit / CHUNKS_PER_WINDOW)) : limit;
    let res: RateLimiterRes;
    let granted = chunk;
    try {
      res = await limiterFor(limit).consume(String(accountId), chunk);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res = err;
      granted = Math.min(chunk, Math.max(0, limit - (res.consumedPoints - chunk)));
    }
    const exhausted = !redis || granted < chunk;
    return { limit, end: Date.now() + res.msBeforeNext, tokens: granted, remaining: Math.max(0, limit - res.consumedPoints), exhausted };
  };

  /** Each pass either decides or waits for a reservation, which leaves tokens or a spent window behind. */
  const waitForWindow = async (accountId: number, limit: number): Promise<RateDecision> => {
    for (;;) {
      let pending = reserving.get(accountId);
      if (!pending) {
        pending = reserve(accountId, limit)
          .then((fresh) => void windows.set(accountId, fresh))
          .finally(() => reserving.delete(accountId));
        reserving.set(accountId, pending);
      }
      await pending;
      const window = windows.get(accountId);
      const now = Date.now();
      if (usable(window, limit, now)) return decide(window, limit, now);
    }
  };

  return (accountId, limit) => {
    const window = windows.get(accountId);
    const now = Date.now();
    return usable(window, limit, now) ? decide(window, limit, now) : waitForWindow(accountId, limit);
  };
};
