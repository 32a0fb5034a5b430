// The event bus across processes: every process publishes its metadata events on one Redis channel per install
// and drops its caches on the others' events, so a revoked key or a new column holds everywhere within
// milliseconds without a metadata read per request. Correctness never depends on Redis: while the link is not
// live (connecting, Redis down) the app falls back to its per-request version read, and every (re)subscription
// starts from empty caches, since events sent while this process was away are lost.
import { createHash, randomUUID } from "node:crypto";
import type Redis from "ioredis";
import { logger } from "../ops/logger";
import type { AppEvent, EventBus } from "./bus";

export type RedisLink = {
  /** True while this process is subscribed and so hears every other process's events. */
  isLive: () => boolean;
  close: () => void;
};

type Envelope = { origin: string; event: AppEvent };

/** One channel per install (metadata schema or data folder), so installs sharing a Redis stay apart. */
export const eventChannel = (install: string) => `tabula:events:${createHash("sha256").update(install).digest("hex").slice(0, 16)}`;

export const linkBusToRedis = (bus: EventBus, publisher: Redis, channel: string, onResubscribed: () => void): RedisLink => {
  const origin = randomUUID();
  const subscriber = publisher.duplicate({ autoResubscribe: false, enableOfflineQueue: true, maxRetriesPerRequest: null });
  let live = false;
  let closed = false;

  subscriber.on("ready", () => {
    subscriber.subscribe(channel).then(
      () => {
        if (closed) return;
        live = true;
        onResubscribed();
      },
      (err: Error) => logger.warn({ err }, "subscribing to the event channel failed; reading the metadata version per request"),
    );
  });
  subscriber.on("close", () => {
    if (live) logger.warn("lost the Redis event channel; reading the metadata version per request until it is back");
    live = false;
  });
  subscriber.on("error", () => {}); // reported once by the publisher's handler (lib/limits/redis.ts)
  subscriber.on("message", (_channel: string, text: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.origin !== origin && envelope.event?.kind) bus.deliver(envelope.event);
  });

  const stopForwarding = bus.forward((event) => {
    // While Redis is down the publish fails at once; the other processes are then on their version read too.
    publisher.publish(channel, JSON.stringify({ origin, event } satisfies Envelope)).catch(() => {});
  });

  return {
    isLive: () => live,
    close: () => {
      closed = true;
      live = false;
      stopForwarding();
      subscriber.disconnect();
    },
  };
};
