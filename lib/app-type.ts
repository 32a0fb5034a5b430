// The app's type, apart from its construction (lib/app.ts builds it and starts its background jobs): modules that
// take the app import this file, which imports types only, so none of them can reach back into the start-up.
import type Redis from "ioredis";
import type { Config } from "./config";
import type { DatabaseCaches } from "./meta/schema-cache";
import type { Engine } from "./db/engine";
import type { EventBus } from "./events/bus";
import type { Metrics } from "./ops/metrics";
import type { RequestLimiter } from "./limits/request-limiter";
import type { DatabaseRole } from "./teams/permissions";
import type { SignInLimiter } from "./auth/sign-in-limiter";
import type { SqlConsole } from "./sql-console/sql-console";
import type { LruMap } from "./lru-map";

/** A live key as the data API knows it; `dashboard`: the account's own key of the dashboard's data browser. */
export type KeyRecord = { id: number; accountId: number; databaseId: number | null; disabled: boolean; dashboard: boolean };

/**
 * The process-wide runtime: engine, secret and the caches the data path reads on every request (the loaded
 * databases and their parts: schemas, hooks, auth, workspaces; lib/meta/schema-cache.ts).
 */
export type App = DatabaseCaches & {
  config: Config;
  engine: Engine;
  secret: Buffer;
  /** Presented secret key → its live record (lib/keys/resolve-key.ts); at most MAX_CACHED_KEYS. */
  keys: LruMap<string, KeyRecord>;
  /** Presented keys that matched no live key, apart so that unknown keys cannot push the live ones out. */
  unknownKeys: LruMap<string, true>;
  /** `owner:account` → the account's member role there (null: none), for the data API (lib/teams/roles.ts). */
  memberRoles: LruMap<string, DatabaseRole | null>;
  /** Verified custom domains of public docs → their database's instance; loaded whole on first use (lib/docs/docs-hosts.ts). */
  docsHosts: { domains?: Promise<Map<string, string>>; /** The map `domains` resolved to, while it is current. */ loaded?: Map<string, string> };
  /** Shared by the rate limiters when REDIS_URL is set. */
  redis?: Redis;
  /** The data API's per-account request rate (lib/limits/request-limiter.ts). */
  limitRequests: RequestLimiter;
  /** Failed sign-ins per account and per address, for the dashboard and every database (lib/auth/sign-in-limiter.ts). */
  signInLimiter: SignInLimiter;
  /** Metadata changes of this process, published after commit; the caches below subscribe to it. */
  events: EventBus;
  /**
   * Drops caches if another process changed the metadata. Called once per request: free while the Redis event
   * link is live (the other processes' events arrive on it); otherwise a version read made after the call,
   * shared by the requests that come together.
   */
  sync: () => void | Promise<void>;
  /** How this process hears other processes' changes now: `redis` (live link) or `version-read` (per request). */
  eventLink: () => "redis" | "version-read";
  /** Prometheus metrics, when enabled (lib/ops/metrics.ts). */
  metrics?: Metrics;
  /** The SQL console's runners and bounds (lib/sql-console/sql-console.ts). */
  sqlConsole: SqlConsole;
  /** Set on SIGTERM: /readyz answers 503 so load balancers stop sending requests. */
  draining: boolean;
  /** Outbox prune, feeds and webhook deliveries of this process (lib/events/change-events.ts). */
  changeEvents?: ChangeEvents;
  close: () => Promise<void>;
};

/** The process's change-event machinery (lib/events/change-events.ts). */
export type ChangeEvents = {
  /** Open feeds' wake functions; each ends its feed once `stopped` is set. */
  feeds: Set<() => void>;
  stopped: boolean;
  /** Runs the webhook dispatcher now (after a delivery was queued by hand). */
  kickWebhooks: () => void;
  /** Webhook dispatcher passes started so far (writes in a burst share one). */
  webhookPasses: () => number;
  stop: () => Promise<void>;
};
