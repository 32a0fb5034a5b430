import path from "node:path";
import { parseTrustProxy, type TrustProxy } from "./http/client-address";
import { type EventsConfig, readEventsConfig } from "./events/events-config";

export type EngineKind = "sqlite" | "mysql";

export type Config = {
  /** AUDIT_DAYS: how long audit entries are kept (default 90). */
  auditDays?: number;
  engine: EngineKind;
  /** Folder for SQLite files and the generated secret (embedded mode). */
  dataDir: string;
  /** mysql://user:pass@host:port/metaSchema when engine is mysql. */
  databaseUrl?: string;
  redisUrl?: string;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed; unset, the socket's address is the client's. */
  trustProxy?: TrustProxy;
  /** TABULA_INSTALL_ID: names this install's Redis event channel and locks (default: the metadata schema name or data folder). */
  installId?: string;
  /** DB_SYNC_WAIT: the `wsrep_sync_wait` of every MySQL session on Galera (default 1: reads see every earlier commit; 0 turns it off). */
  syncWait?: number;
  /** With a live Redis event link: how often (ms) the metadata version is still read, a net should a process miss events. */
  metaPollMs?: number;
  /** Prometheus metrics at /metrics: off when undefined; a token, when set, must come as a Bearer credential. */
  metrics?: { token?: string };
  /** Master secret for encrypting stored keys; generated into dataDir when unset. */
  secret?: string;
  bcryptCost: number;
  /** The plan new accounts get (TABULA_DEFAULT_PLAN, default `free`); it must name an existing plan. */
  defaultPlan?: string;
  /** HMAC-SHA256 secret of the billing webhook (BILLING_WEBHOOK_SECRET); unset, the webhook refuses every call. */
  billingWebhookSecret?: string;
  /** smtp://user:pass@host:port (or smtps://): invites with an email are sent through it; unset, links only. */
  smtpUrl?: string;
  /** The From of those emails (MAIL_FROM). */
  mailFrom?: string;
  /** SQLite: reader threads for reads that may scan (SQLITE_READERS, default 2; 0 keeps them on the main thread). */
  sqliteReaders?: number;
  /** SQLite: page cache per connection in MB (SQLITE_CACHE_MB, default 16); a database open on n readers has n + 1. */
  sqliteCacheMb?: number;
  /** SQLite: user databases kept open at once (SQLITE_MAX_OPEN; default from the descriptor limit, at most 200). */
  sqliteMaxOpen?: number;
  /** SQLite: seconds an unused user database stays open (SQLITE_IDLE_SECONDS, default 60). */
  sqliteIdleSeconds?: number;
  /** An OpenAI-compatible chat-completions endpoint for the AI builder; unset, the offline planner plans. */
  ai?: { baseUrl: string; apiKey?: string; model: string; maxSteps: number; tools: boolean };
  /** Public docs on custom domains (lib/docs): where their CNAME must point, and how DNS is asked. */
  docs?: DocsConfig;
  /** Change events, the feed and webhooks (lib/events/events-config.ts). */
  events?: EventsConfig;
};

export type DocsConfig = {
  /** DOCS_CNAME_TARGET: the host a custom docs domain must CNAME to (default: NEXTAUTH_URL's host, else localhost). */
  cnameTarget: string;
  /** The app's own address for the API server of docs shown on a custom domain (PUBLIC_URL, else NEXTAUTH_URL, else https://<cname target>). */
  apiUrl: string;
  /** DNS_SERVERS: comma-separated host[:port]; unset, the system's resolvers. */
  dnsServers?: string[];
  /** DNS_TIMEOUT_MS: one lookup's timeout (default 5000). */
  dnsTimeoutMs: number;
  /** DOCS_RECHECK_SECONDS: how often every custom domain is checked again (default 3600; 0 turns it off). */
  recheckMs: number;
};

const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
};

/** The docs settings of a config (a config built by hand, as the tests do, reads them from the environment). */
export const docsConfig = (config: Config): DocsConfig => (config.docs ??= readDocsConfig(process.env));

const readDocsConfig = (env: NodeJS.ProcessEnv): DocsConfig => {
  const cnameTarget = (env.DOCS_CNAME_TARGET || hostOf(env.NEXTAUTH_URL) || "localhost").toLowerCase().replace(/\.$/, "");
  return {
    cnameTarget,
    apiUrl: (env.PUBLIC_URL || env.NEXTAUTH_URL || `https://${cnameTarget}`).replace(/\/+$/, ""),
    dnsServers: env.DNS_SERVERS ? env.DNS_SERVERS.split(",").map((s) => s.trim()).filter(Boolean) : undefined,
    dnsTimeoutMs: Number(env.DNS_TIMEOUT_MS || 5000),
    recheckMs: Number(env.DOCS_RECHECK_SECONDS ?? 3600) * 1000,
  };
};

/** A whole number from the environment, or undefined when unset; anything else stops the server at start. */
const wholeNumber = (env: NodeJS.ProcessEnv, name: string, min: number) => {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${text}")`);
  return n;
};

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^mysql:\/\//.test(databaseUrl)) {
    throw new Error(`DATABASE_URL must start with mysql:// (got ${databaseUrl.split(":")[0]}:)`);
  }
  return {
    engine: databaseUrl ? "mysql" : "sqlite",
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl,
    redisUrl: env.REDIS_URL || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    installId: env.TABULA_INSTALL_ID || undefined,
    syncWait: wholeNumber(env, "DB_SYNC_WAIT", 0),
    metaPollMs: env.META_POLL_MS ? Number(env.META_POLL_MS) : undefined,
    metrics: env.METRICS_TOKEN ? { token: env.METRICS_TOKEN } : env.METRICS === "1" || env.METRICS === "on" ? {} : undefined,
    secret: env.TABULA_SECRET || undefined,
    bcryptCost: Number(env.BCRYPT_COST || 10),
    defaultPlan: env.TABULA_DEFAULT_PLAN || "free",
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    sqliteReaders: wholeNumber(env, "SQLITE_READERS", 0),
    sqliteCacheMb: wholeNumber(env, "SQLITE_CACHE_MB", 1),
    sqliteMaxOpen: wholeNumber(env, "SQLITE_MAX_OPEN", 1),
    sqliteIdleSeconds: wholeNumber(env, "SQLITE_IDLE_SECONDS", 1),
    auditDays: wholeNumber(env, "AUDIT_DAYS", 1),
    ai: env.AI_BASE_URL
      ? {
          baseUrl: env.AI_BASE_URL,
          apiKey: env.AI_API_KEY || undefined,
          model: env.AI_MODEL || "gpt-4o-mini",
          maxSteps: Number(env.AI_MAX_STEPS || 12),
          tools: env.AI_TOOLS !== "off",
        }
      : undefined,
    docs: readDocsConfig(env),
    events: readEventsConfig(env),
  };
};
