/** Change feeds one credential (a secret key, or one user of a database) may hold open at once, by default. */
export const MAX_FEEDS_PER_KEY = 50;
/** Change feeds one server process serves at once, by default. */
export const MAX_FEEDS_PER_INSTALL = 1000;

/** Change events, the feed and webhooks (docs/events.md); every value from the environment, with defaults. */
export type EventsConfig = {
  /** EVENTS_RETENTION_HOURS: how long events stay in the outbox for replay (default 24). */
  retentionMs: number;
  /** HISTORY_DAYS: how long events of tables with record history stay for /_history and /_restore (default 30). */
  historyMs: number;
  /** EVENTS_PRUNE_SECONDS: how often old events are deleted (default 300). */
  pruneMs: number;
  /** EVENTS_POLL_MS: how often a feed or the webhook dispatcher reads the outbox without a wake-up (default 1000). */
  pollMs: number;
  /** EVENTS_HEARTBEAT_SECONDS: the feed's comment heartbeat (default 15). */
  heartbeatMs: number;
  /** WEBHOOK_RETRY_SCALE: multiplies the retry schedule and the 3-day disable window (default 1; tests use ~0.001). */
  retryScale: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: private and loopback targets allowed (link-local never). */
  allowPrivate: boolean;
  /** FEEDS_PER_KEY: open change feeds per credential (default MAX_FEEDS_PER_KEY). */
  feedsPerKey: number;
  /** FEEDS_PER_INSTALL: open change feeds per server process (default MAX_FEEDS_PER_INSTALL). */
  feedsPerInstall: number;
  /** WEBHOOK_TIMEOUT_MS: one delivery attempt's time limit, connect to last byte (default 10000). */
  timeoutMs: number;
};

const num = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${text}")`);
  return n;
};

export const readEventsConfig = (env: NodeJS.ProcessEnv): EventsConfig => ({
  retentionMs: num(env, "EVENTS_RETENTION_HOURS", 24) * 3_600_000,
  historyMs: num(env, "HISTORY_DAYS", 30) * 86_400_000,
  pruneMs: num(env, "EVENTS_PRUNE_SECONDS", 300) * 1000,
  pollMs: num(env, "EVENTS_POLL_MS", 1000),
  heartbeatMs: num(env, "EVENTS_HEARTBEAT_SECONDS", 15) * 1000,
  retryScale: num(env, "WEBHOOK_RETRY_SCALE", 1),
  allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "1",
  timeoutMs: num(env, "WEBHOOK_TIMEOUT_MS", 10_000),
  feedsPerKey: Math.floor(num(env, "FEEDS_PER_KEY", MAX_FEEDS_PER_KEY)),
  feedsPerInstall: Math.floor(num(env, "FEEDS_PER_INSTALL", MAX_FEEDS_PER_INSTALL)),
});

/**
 * The events settings of a config (a config built by hand, as the tests do, reads them from the environment).
 * Takes only its `events` field, so lib/config.ts, which builds it, can import this file.
 */
export const eventsConfig = (config: { events?: EventsConfig }): EventsConfig => (config.events ??= readEventsConfig(process.env));
