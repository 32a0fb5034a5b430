// Sign-in limits for every way in with a password: the dashboard (next-auth credentials, the operator included)
// and each database's /v1/{db}/auth/login and /auth/signup. One limiter per app (so both adapters count in the
// same place), in Redis when REDIS_URL is set, with a memory limiter as insurance while Redis is down.
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "../errors";

/** Failed sign-ins allowed per account, and per client address, in one window. */
export const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** Where the password is checked: `dashboard`, or `db:<id>` for a database's own users. */
export type SignInAttempt = { realm: string; login: string; address: string | undefined };

export type SignInLimiter = {
  /**
   * Counts one attempt against the account and the address before the password is checked (so parallel
   * guesses cannot slip past the count). Over the limit: the seconds to wait (answer signInLimited), whatever
   * the password; undefined while attempts are left.
   */
  count: (attempt: SignInAttempt) => Promise<number | undefined>;
  /** A right password gives its attempt back, so only failures use up the limit. */
  forgive: (attempt: SignInAttempt) => Promise<void>;
};

const keysOf = ({ realm, login, address }: SignInAttempt) => ({
  account: `${realm}:${login.trim().toLowerCase()}`,
  address: `${realm}:${address ?? "unknown"}`,
});

/** What a limited attempt answers: the same for a known and an unknown login. */
export const signInLimited = (seconds: number) =>
  new ApiError("rate_limited", `Too many sign-in attempts; try again in ${seconds} seconds.`, { headers: { "Retry-After": String(seconds) } });

// The methods close over this module's RateLimiterRes and return plain values: Next's bundle holds other copies
// of the package and of ApiError, whose classes would not match what the custom server's copy created.
// `install` keeps installs that share one Redis apart (their database ids and emails overlap).
export const createSignInLimiter = (redis: Redis | undefined, install: string): SignInLimiter => {
  const scope = createHash("sha256").update(install).digest("hex").slice(0, 12);
  const make = (kind: string) => {
    const options = { keyPrefix: `tabula_signin_${scope}_${kind}`, points: SIGN_IN_ATTEMPTS, duration: SIGN_IN_WINDOW_SECONDS };
    return redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  };
  const perAccount = make("account");
  const perAddress = make("address");
  return {
    count: async (attempt) => {
      const keys = keysOf(attempt);
      const results = await Promise.allSettled([perAccount.consume(keys.account), perAddress.consume(keys.address)]);
      const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      if (!refused.length) return undefined;
      const other = refused.find((r) => !(r instanceof RateLimiterRes));
      if (other) throw other;
      const ms = Math.max(...refused.map((r) => (r as RateLimiterRes).msBeforeNext));
      return Math.max(1, Math.ceil(ms / 1000));
    },
    forgive: async (attempt) => {
      const keys = keysOf(attempt);
      await Promise.all([perAccount.reward(keys.account, 1), perAddress.reward(keys.address, 1)]);
    },
  };
};
