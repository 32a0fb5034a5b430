// Wake-ups across processes: each process publishes the databases it wrote events to on one channel per
// install, and wakes its own readers on the others'. A lost message costs latency only: readers also poll.
// A message is `origin \n physical \n table,table` (table names hold no comma or newline).
import { createHash, randomUUID } from "node:crypto";
import type Redis from "ioredis";
import { deliverChanges, onChanges } from "./change-signal";

const channelOf = (install: string) => `tabula:changes:${createHash("sha256").update(install).digest("hex").slice(0, 16)}`;

export const linkChangesToRedis = (publisher: Redis, install: string): (() => void) => {
  const channel = channelOf(install);
  const origin = randomUUID();
  const subscriber = publisher.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  subscriber.on("error", () => {}); // reported by the publisher's handler (lib/limits/redis.ts)
  void subscriber.subscribe(channel).catch(() => {});
  subscriber.on("message", (_channel: string, text: string) => {
    const [from, physical, tables] = text.split("\n");
    if (from !== origin && physical) deliverChanges(physical, tables ? new Set(tables.split(",")) : undefined);
  });
  const off = onChanges((physical, tables, local) => {
    if (local) publisher.publish(channel, `${origin}\n${physical}${tables ? `\n${[...tables].join(",")}` : ""}`).catch(() => {});
  });
  return () => {
    off();
    subscriber.disconnect();
  };
};
