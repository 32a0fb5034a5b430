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
  /** smtp://user:pass@host:port (or smtps://): every mail of the app goes through it; unset, mail stays in the install's mailbox. */
  smtpUrl?: string;
  /** The From of those emails (MAIL_FROM). */
  mailFrom?: string;
  /** The first wait (ms) before a mail the SMTP server did not take is tried again; it doubles each time (MAIL_RETRY_MS, default 30 s). */
  mailRetryMs?: number;
  /** SQLite: reader threads for reads that may scan (SQLITE_READERS, default 3; 0 keeps them on the main thread). */
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
  /** FILE_MAX_BYTES: most bytes of one uploaded file (default 50 MiB); a file column's max_size may lower it. */
  fileMaxBytes?: number;
  /** FILE_SWEEP_SECONDS: how often orphaned files are swept (default 3600; 0 turns it off). */
  fileSweepSeconds?: number;
  /** FILE_SWEEP_GRACE_SECONDS: how old an unreferenced file must be before the sweeper deletes it (default 3600). */
  fileSweepGraceSeconds?: number;
  /** API_NODES: how many API processes serve this install (default 1); more than one needs S3 file storage. */
  apiNodes?: number;
  /** Where files are stored: this S3-compatible bucket when S3_BUCKET is set, otherwise DATA_DIR/files (lib/files). */
  s3?: S3Config;
  /** Sign-in with OAuth / OpenID providers (lib/db-auth/oauth); read from the environment when absent. */
  oauth?: OAuthConfig;
};

export type S3Config = {
  /** S3_BUCKET: the bucket; it must exist. */
  bucket: string;
  /** S3_ENDPOINT: an S3-compatible service's address (MinIO, R2…); unset, AWS's for the region. */
  endpoint?: string;
  /** S3_REGION (default us-east-1). */
  region: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; unset, the SDK's usual credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** S3_FORCE_PATH_STYLE=1: bucket in the path rather than the host name (most self-hosted services need it). */
  forcePathStyle: boolean;
};

const readS3Config = (env: NodeJS.ProcessEnv): S3Config | undefined =>
  env.S3_BUCKET
    ? {
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT || undefined,
        region: env.S3_REGION || "us-east-1",
        accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
        forcePathStyle: ["1", "true", "on"].includes((env.S3_FORCE_PATH_STYLE ?? "").toLowerCase()),
      }
    : undefined;

/** FILE_MAX_BYTES when unset. */
export const DEFAULT_FILE_MAX_BYTES = 52_428_800;

export type OAuthConfig = {
  /** PUBLIC_URL (else NEXTAUTH_URL): the address providers send users back to; unset, the origin the request came in on. */
  publicUrl?: string;
  /** OAUTH_GOOGLE_ISSUER: the `google` preset's issuer (default https://accounts.google.com). */
  googleIssuer: string;
  /** OAUTH_GITHUB_URL and OAUTH_GITHUB_API_URL: the `github` preset's sign-in site and API (GitHub Enterprise, tests). */
  githubUrl: string;
  githubApiUrl: string;
};

/** The OAuth settings of a config (a config built by hand, as the tests do, reads them from the environment). */
export const oauthConfig = (config: Config): OAuthConfig => (config.oauth ??= readOAuthConfig(process.env));

const readOAuthConfig = (env: NodeJS.ProcessEnv): OAuthConfig => ({
  publicUrl: env.PUBLIC_URL || env.NEXTAUTH_URL ? (env.PUBLIC_URL || env.NEXTAUTH_URL)!.replace(/\/+$/, "") : undefined,
  googleIssuer: env.OAUTH_GOOGLE_ISSUER || "https://accounts.google.com",
  githubUrl: (env.OAUTH_GITHUB_URL || "https://github.com").replace(/\/+$/, ""),
  githubApiUrl: (env.OAUTH_GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, ""),
});

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
    mailRetryMs: env.MAIL_RETRY_MS ? wholeNumber(env, "MAIL_RETRY_MS", 1) : undefined,
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
    fileMaxBytes: wholeNumber(env, "FILE_MAX_BYTES", 1),
    apiNodes: wholeNumber(env, "API_NODES", 1),
    fileSweepSeconds: wholeNumber(env, "FILE_SWEEP_SECONDS", 0),
    fileSweepGraceSeconds: wholeNumber(env, "FILE_SWEEP_GRACE_SECONDS", 0),
    s3: readS3Config(env),
    oauth: readOAuthConfig(env),
  };
};
