/** Seconds before each retry: 5 s, 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h (about a day in all); then failed. */
export const RETRY_SECONDS = [5, 30, 120, 600, 3600, 10_800, 21_600, 43_200];

/** A webhook failing this long (3 days) is disabled with a reason. */
export const DISABLE_AFTER_SECONDS = 3 * 24 * 3600;

/** When attempt `attempts + 1` is due, or undefined when the attempts are used up. WEBHOOK_RETRY_SCALE scales it. */
export const nextAttemptAt = (attempts: number, scale: number, now = Date.now()): string | undefined => {
  const seconds = RETRY_SECONDS[attempts - 1];
  return seconds === undefined ? undefined : new Date(now + seconds * 1000 * scale).toISOString();
};
