import fs from "node:fs";
import path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { type Config, readConfig } from "./config";
import { createDatabaseCaches } from "./meta/schema-cache";
import { type Engine, openEngine } from "./db/engine";
import { migrateToLatest } from "./db/migrations";
import { createEventBus } from "./events/bus";
import { planExists } from "./plans/effective-plan";
import { flushHookLogs } from "./hooks/hook-logs";
import { openRedis } from "./limits/redis";
import { eventChannel, linkBusToRedis } from "./events/redis-link";
import { installIdentity } from "./events/install-identity";
import { createRequestLimiter } from "./limits/request-limiter";
import type { DatabaseRole } from "./teams/permissions";
import { startDomainRechecks } from "./docs/recheck-domains";
import { createSignInLimiter } from "./auth/sign-in-limiter";
import { startBackupScheduler } from "./backup/backup-schedule";
import { settleBackups } from "./backup/backup-jobs";
import { startRestoreSweeper } from "./backup/claim-name";
import { startSchemaReconciler } from "./meta/schema-change/reconcile-schema";
import { startAuditPrune } from "./meta/audit/prune-audit";
import { logger } from "./ops/logger";
import { startChangeEvents } from "./events/change-events";
import { createSqlConsole } from "./sql-console/sql-console";
import type { App, KeyRecord } from "./app-type";
import { LruMap } from "./lru-map";
import { startMailDelivery } from "./mail/mail-delivery";
import { MAX_CACHED_KEYS, MAX_CACHED_UNKNOWN_KEYS } from "./keys/resolve-key";
import { MAX_CACHED_ROLES } from "./teams/roles";
import { startFileSweeper } from "./api/files/sweep-orphans";

export type { App, ChangeEvents, KeyRecord } from "./app-type";

const loadSecret = (config: Config): Buffer => {
  if (config.secret) return createHash("sha256").update(config.secret).digest();
  const file = path.join(config.dataDir, "secret.key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
};

/** TABULA_DEFAULT_PLAN must name a plan, or every sign-up would fail later: refuse to start instead. */
const requireDefaultPlan = async (engine: Engine, config: Config) => {
  const name = config.defaultPlan ?? "free";
  if (await planExists(engine.meta, name)) return;
  const plans = await engine.meta.selectFrom("plans").select("name").execute();
  await engine.close();
  throw new Error(`TABULA_DEFAULT_PLAN is "${name}", which is not a plan of this install (plans: ${plans.map((p) => p.name).join(", ")}).`);
};

export const createApp = async (config: Config = readConfig()): Promise<App> => {
  // Each API node would keep its own DATA_DIR/files: an upload on one would be missing on the others.
  if ((config.apiNodes ?? 1) > 1 && !config.s3) {
    throw new Error(`API_NODES=${config.apiNodes}: a cluster of more than one API node needs S3 file storage (S3_BUCKET), not a local folder`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const engine = await openEngine(config);
  await migrateToLatest(engine.meta, engine.kind);
  await requireDefaultPlan(engine, config);
  const caches = createDatabaseCaches();
  const { schemas, workspaces } = caches;
  const keys = new LruMap<string, KeyRecord>(MAX_CACHED_KEYS);
  const unknownKeys = new LruMap<string, true>(MAX_CACHED_UNKNOWN_KEYS);
  const memberRoles = new LruMap<string, DatabaseRole | null>(MAX_CACHED_ROLES);
  const docsHosts: App["docsHosts"] = {};
  const invalidate = () => {
    schemas.clear();
    workspaces.clear();
    keys.clear();
    unknownKeys.clear();
    memberRoles.clear();
    docsHosts.domains = undefined;
  };
  const events = createEventBus();
  events.subscribe((event) => {
    // Each drop reaches the loaded databases built on it (a schema's also its hooks and auth settings), and no further.
    if (event.kind === "schema" || event.kind === "database") {
      schemas.delete(event.instance);
      engine.clearStatements(event.physical);
    }
    if (event.kind === "hooks") caches.hooks.delete(event.instance);
    if (event.kind === "plans" || event.kind === "team") workspaces.clear();
    if (event.kind === "team") memberRoles.clear();
    // A deleted database takes its scoped keys with it; settings may change who an account key acts as.
    if (event.kind === "database" || event.kind === "keys" || event.kind === "settings") {
      keys.clear();
      unknownKeys.clear();
    }
    if (event.kind === "docs" || event.kind === "database") docsHosts.domains = undefined;
  });
  const redis = config.redisUrl ? openRedis(config.redisUrl) : undefined;
  const link = redis && linkBusToRedis(events, redis, eventChannel(installIdentity(config)), invalidate);
  const checkVersion = () => engine.metaChanged().then((yes) => void (yes && invalidate()));
  // The net under the Redis link: should this process miss events without noticing (a half-broken
  // connection), the version read still catches the change within metaPollMs.
  const poll = link && setInterval(() => {
    if (!link.isLive()) return;
    checkVersion().catch(() => {});
  }, config.metaPollMs ?? 1_000);
  poll?.unref();
  const secret = loadSecret(config);
  // prom-client loads only where metrics are on.
  const metrics = config.metrics ? (await import("./ops/metrics")).createMetrics(engine) : undefined;
  const app: App = {
    config,
    engine,
    redis,
    limitRequests: createRequestLimiter(redis),
    signInLimiter: createSignInLimiter(redis, installIdentity(config)),
    secret,
    ...caches,
    keys,
    unknownKeys,
    memberRoles,
    docsHosts,
    events,
    sync: () => (link?.isLive() ? undefined : checkVersion()),
    eventLink: () => (link?.isLive() ? "redis" : "version-read"),
    metrics,
    sqlConsole: createSqlConsole(config, secret),
    draining: false,
    close: async () => {
      await app.changeEvents?.stop();
      stopMail();
      stopRechecks();
      stopReconciler();
      stopSweeper();
      stopBackups();
      stopRestoreSweeper();
      await settleBackups(app);
      stopAuditPrune();
      if (poll) clearInterval(poll);
      link?.close();
      await flushHookLogs(app);
      redis?.disconnect();
      await app.sqlConsole.close();
      await engine.close();
    },
  };
  const stopRechecks = startDomainRechecks(app);
  const stopReconciler = startSchemaReconciler(app);
  const stopSweeper = startFileSweeper(app, (config.fileSweepSeconds ?? 3600) * 1000, (config.fileSweepGraceSeconds ?? 3600) * 1000);
  const stopMail = startMailDelivery(app);
  const stopBackups = startBackupScheduler(app);
  const stopRestoreSweeper = startRestoreSweeper(app);
  const stopAuditPrune = startAuditPrune(app, (err) => logger.warn({ err }, "pruning the audit log failed"));
  app.changeEvents = startChangeEvents(app, installIdentity(config));
  return app;
};

// Kept on globalThis so the custom server and Next's bundled copy of this module share one app.
const holder = globalThis as typeof globalThis & { __tabulaApp?: Promise<App> };

/** The app for this process, configured from the environment (route handlers and the server use it). */
export const getApp = (): Promise<App> => {
  holder.__tabulaApp ??= createApp().catch((err) => {
    holder.__tabulaApp = undefined;
    throw err;
  });
  return holder.__tabulaApp;
};
