import Redis from "ioredis";

/**
 * The one Redis connection of a process (rate limits). Commands fail at once while it is down (no offline
 * queue), so the limiters fall back to memory instead of waiting; it reconnects on its own.
 */
export const openRedis = (url: string): Redis => {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let warned = 0;
  client.on("error", (err: Error) => {
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    console.warn(`[tabula] Redis unavailable (${err.message}); rate limits count in this process's memory until it is back.`);
  });
  return client;
};
