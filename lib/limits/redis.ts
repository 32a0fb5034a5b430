import Redis from "ioredis";
import { logger } from "../ops/logger";

/**
 * The one Redis connection of a process (rate limits, and publishing events; the event link subscribes on a
 * second one). Commands fail at once while it is down (no offline queue), so the limiters fall back to memory
 * and the caches to the version read instead of waiting; it reconnects on its own.
 */
export const openRedis = (url: string): Redis => {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let warned = 0;
  client.on("error", (err: Error) => {
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    logger.warn({ err: err.message }, "Redis unavailable: rate limits count in this process's memory, and caches follow the metadata version read, until it is back");
  });
  return client;
};
