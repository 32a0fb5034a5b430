// One subscriber's feed: a cursor into the outbox (the source of truth), read on every wake-up and on a
// poll. A reader that meets a gap (retention took events it had not read) says so with a `reset` event.
import type { App } from "../../app-type";
import type { UserDb } from "../../db/engine";
import type { StreamSink } from "../../http/core-types";
import { logger } from "../../ops/logger";
import { eventsConfig } from "../events-config";
import { onTableChanges } from "../outbox/change-signal";
import { type ChangeEvent, outboxBounds, readEvents } from "../outbox/read-events";

const BATCH = 500;
/** After a wake-up that found nothing (the write not yet committed), look again soon before the poll. */
const QUICK_RETRIES_MS = [2, 10, 50, 200];
/** Under a stream of writes, reads start at most this often, so each one carries a batch. */
const MIN_READ_GAP_MS = 10;

export type FeedOptions = {
  app: App;
  udb: UserDb;
  instance: string;
  physical: string;
  /** The tables asked, by id (their names as when the feed opened). */
  tables: { id: number; name: string }[];
  /** The cursor from Last-Event-ID; undefined starts live, after `start.high`. */
  resume?: number;
  /** The outbox's bounds when the request was answered, read before the stream opened. */
  start: { low: number; high: number };
  /** Re-checks the caller (credential, policies) before each batch: what it may see of an event, or false to end. */
  authorize: () => Promise<((event: ChangeEvent) => ChangeEvent | undefined) | false>;
};

const frame = (event: string, id: number, data: unknown) => `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;

export const runFeed = async (options: FeedOptions, sink: StreamSink) => {
  const { app, udb, instance, physical, tables } = options;
  const config = eventsConfig(app.config);
  let woken = false;
  let wake = () => {};
  const poke = () => {
    woken = true;
    wake();
  };
  const off = onTableChanges(physical, tables.map((t) => t.name), poke);
  sink.signal.addEventListener("abort", poke);
  app.changeEvents?.feeds.add(poke);
  const ended = () => sink.signal.aborted || app.draining || app.changeEvents?.stopped === true;
  try {
    await sink.write("retry: 2000\n\n");
    const reset = async (reason: string) => {
      const { high } = await outboxBounds(udb);
      await sink.write(frame("reset", high, { reason, id: high }));
      return high;
    };
    const first = options.start;
    let cursor = first.high;
    if (options.resume !== undefined) {
      cursor = options.resume < first.low - 1 || options.resume > first.high ? await reset("resume point outside the retained events") : options.resume;
    }
    let lastWrite = Date.now();
    let armed = false; // woken by a signal whose commit the last read may not have seen yet
    let quick = 0;
    let lastRead = 0;
    while (!ended()) {
      const wait = lastRead + MIN_READ_GAP_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastRead = Date.now();
      woken = false;
      const visible = await options.authorize();
      if (!visible) return;
      const entries = await readEvents(udb, instance, cursor, BATCH, tables);
      let gap = entries.length > 0 && entries[0].id !== cursor + 1;
      if (entries.length === 0) {
        // Nothing after the cursor: a gap only if the sequence says events were committed (and then pruned).
        const { high } = await outboxBounds(udb);
        if (high > cursor) gap = (await readEvents(udb, instance, cursor, 1, tables)).length === 0;
      }
      if (gap) {
        cursor = await reset("fell behind the retained events");
        continue;
      }
      for (const { id, event } of entries) {
        cursor = id;
        const shown = event && visible(event);
        if (!shown) continue;
        await sink.write(frame(shown.action, id, shown));
        lastWrite = Date.now();
        if (ended()) return;
      }
      if (woken) [armed, quick] = [true, 0];
      if (entries.length === BATCH || woken) continue;
      const sinceWrite = Date.now() - lastWrite;
      if (sinceWrite >= config.heartbeatMs) {
        await sink.write(": heartbeat\n\n");
        lastWrite = Date.now();
      }
      if (entries.length > 0) armed = false;
      const delay = armed && quick < QUICK_RETRIES_MS.length ? QUICK_RETRIES_MS[quick++] : config.pollMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(delay, Math.max(1, config.heartbeatMs - (Date.now() - lastWrite))));
        wake = () => {
          clearTimeout(timer);
          armed = true;
          quick = 0;
          resolve();
        };
        if (woken || ended()) wake();
      });
      wake = () => {};
    }
  } catch (err) {
    if (!sink.signal.aborted) logger.warn({ err, instance }, "a change feed failed; the client will reconnect with Last-Event-ID");
  } finally {
    off();
    sink.signal.removeEventListener("abort", poke);
    app.changeEvents?.feeds.delete(poke);
  }
};
