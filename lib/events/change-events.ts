// The process's change-event machinery, started with the app and stopped by app.close(): the outbox prune,
// the Redis wake-ups between processes, the open feeds (ended at close) and the webhook dispatcher.
import type { App, ChangeEvents } from "../app-type";
import { logger } from "../ops/logger";
import { eventsConfig } from "./events-config";
import { pruneEvents } from "./outbox/prune-events";
import { linkChangesToRedis } from "./outbox/redis-changes";
import { startDispatcher } from "../webhooks/dispatcher";

export const startChangeEvents = (app: App, install: string): ChangeEvents => {
  const config = eventsConfig(app.config);
  const prune = setInterval(() => void pruneEvents(app).catch((err: unknown) => logger.warn({ err }, "pruning change events failed")), config.pruneMs);
  prune.unref();
  const unlink = app.redis ? linkChangesToRedis(app.redis, install) : undefined;
  const dispatcher = startDispatcher(app);
  const events: ChangeEvents = {
    feeds: new Set(),
    stopped: false,
    kickWebhooks: dispatcher.kick,
    webhookPasses: dispatcher.passes,
    stop: async () => {
      events.stopped = true;
      clearInterval(prune);
      unlink?.();
      for (const wake of events.feeds) wake();
      await dispatcher.stop();
    },
  };
  return events;
};
