import path from "node:path";

export type EngineKind = "sqlite" | "mysql";

export type Config = {
  engine: EngineKind;
  /** Folder for SQLite files and the generated secret (embedded mode). */
  dataDir: string;
  /** mysql://user:pass@host:port/metaSchema when engine is mysql. */
  databaseUrl?: string;
  redisUrl?: string;
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
  /** An OpenAI-compatible chat-completions endpoint for the AI builder; unset, the offline planner plans. */
  ai?: { baseUrl: string; apiKey?: string; model: string; maxSteps: number; tools: boolean };
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
    metaPollMs: env.META_POLL_MS ? Number(env.META_POLL_MS) : undefined,
    metrics: env.METRICS_TOKEN ? { token: env.METRICS_TOKEN } : env.METRICS === "1" || env.METRICS === "on" ? {} : undefined,
    secret: env.TABULA_SECRET || undefined,
    bcryptCost: Number(env.BCRYPT_COST || 10),
    defaultPlan: env.TABULA_DEFAULT_PLAN || "free",
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    ai: env.AI_BASE_URL
      ? {
          baseUrl: env.AI_BASE_URL,
          apiKey: env.AI_API_KEY || undefined,
          model: env.AI_MODEL || "gpt-4o-mini",
          maxSteps: Number(env.AI_MAX_STEPS || 12),
          tools: env.AI_TOOLS !== "off",
        }
      : undefined,
  };
};
