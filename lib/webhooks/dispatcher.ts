// The process's webhook loop: on a change signal or every poll, fan events out to deliveries, then claim
// and send the due attempts (a few at a time). stop() waits for attempts in flight.
import type { App } from "../app-type";
import { logger } from "../ops/logger";
import { eventsConfig } from "../events/events-config";
import { onChanges } from "../events/outbox/change-signal";
import { lookupWebhooks, type Outcome, recordOutcomes, sendAttempt } from "./attempt-delivery";
import { claimDeliveries } from "./claim-deliveries";
import { fanOut } from "./fan-out";

/** Attempts claimed per transaction and sent at once. */
const BATCH = 32;
/** Passes woken by writes start at most this often, so a burst of writes shares one pass. */
const MIN_GAP_MS = 100;

export const startDispatcher = (app: App) => {
  const config = eventsConfig(app.config);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  /** When the last pass started, and the timer of a write's wake-up held back until MIN_GAP_MS after it. */
  let lastStart = 0;
  let held: NodeJS.Timeout | undefined;
  let passes = 0;

  const pass = async () => {
    passes++;
    await fanOut(app);
    for (;;) {
      const claimed = await claimDeliveries(app, BATCH, config.timeoutMs + 30_000);
      if (claimed.length === 0 || stopped) return;
      const targets = await lookupWebhooks(app, claimed.map((c) => c.webhook_id));
      const outcomes: Outcome[] = [];
      await Promise.all(
        claimed.map(async (c) => {
          const target = targets.get(c.webhook_id);
          if (target) outcomes.push(await sendAttempt(app, c, target).catch((err: unknown) => ({ claimed: c, ok: false, error: String(err) })));
        }),
      );
      await recordOutcomes(app, outcomes, targets);
    }
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    lastStart = Date.now();
    running = pass()
      .catch((err: unknown) => logger.warn({ err }, "the webhook dispatcher's pass failed"))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          setTimeout(run, MIN_GAP_MS).unref(); // writes in a burst share a pass
        } else schedule();
      });
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, config.pollMs);
    timer.unref();
  };
  /** A write's wake-up: a pass now unless one started within MIN_GAP_MS, else one when that gap is over. */
  const wake = () => {
    if (stopped || held) return;
    const wait = lastStart + MIN_GAP_MS - Date.now();
    if (wait <= 0) return run();
    held = setTimeout(() => {
      held = undefined;
      run();
    }, wait);
    held.unref();
  };
  const off = onChanges(wake);
  schedule();
  return {
    /** Runs a pass now (tests, and the test route after it queues a delivery). */
    kick: run,
    /** Passes started since the dispatcher started. */
    passes: () => passes,
    stop: async () => {
      stopped = true;
      off();
      clearTimeout(timer);
      clearTimeout(held);
      await running;
    },
  };
};
