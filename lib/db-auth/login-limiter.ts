import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { App } from "../app";
import { ApiError } from "../errors";

/** Failed logins allowed per database + login + client address in one window. */
export const LOGIN_ATTEMPTS = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Attempts per database + login from all addresses together, so rotating addresses does not buy more guesses. */
export const LOGIN_ATTEMPTS_ANY_ADDRESS = 100;

type Limiters = { perAddress: RateLimiterAbstract; perLogin: RateLimiterAbstract };
const limiters = new WeakMap<App, Limiters>();

/** Shared through Redis when REDIS_URL is set, so every process counts the same attempts (memory while it is down). */
const limitersFor = (app: App): Limiters => {
  let pair = limiters.get(app);
  if (!pair) {
    const redis = app.redis;
    const make = (keyPrefix: string, points: number) => {
      const options = { keyPrefix, points, duration: LOGIN_WINDOW_SECONDS };
      return redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
    };
    pair = { perAddress: make("tabula_login", LOGIN_ATTEMPTS), perLogin: make("tabula_login_any", LOGIN_ATTEMPTS_ANY_ADDRESS) };
    limiters.set(app, pair);
  }
  return pair;
};

const keyOf = (databaseId: number, login: string, address: string) => `${databaseId}:${address}:${login.toLowerCase()}`;

/** Counts one attempt; 429 with Retry-After once the window's attempts are used up. */
export const countLoginAttempt = async (app: App, databaseId: number, login: string, address: string) => {
  const { perAddress, perLogin } = limitersFor(app);
  try {
    await perAddress.consume(keyOf(databaseId, login, address));
    await perLogin.consume(keyOf(databaseId, login, "*"));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError("rate_limited", `Too many login attempts; try again in ${seconds} seconds.`, { headers: { "Retry-After": String(seconds) } });
  }
};

/** A successful login clears the count for that login and address. */
export const clearLoginAttempts = async (app: App, databaseId: number, login: string, address: string) => {
  await limitersFor(app).perAddress.delete(keyOf(databaseId, login, address));
};
