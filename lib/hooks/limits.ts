// The pre-hook cost bound (docs/api.md "Pre hooks: cost bound"): sizes are counted in characters (UTF-16 code
// units) for strings, bytes for bytes, and for lists and maps their elements' sizes plus 8 per element.

/** No string, list or map a hook builds may be larger than the request body limit (1 MiB). */
export const VALUE_LIMIT = 1_048_576;

/** Per-element overhead counted in a list's or map's size (and the size of a number, bool or timestamp). */
export const ELEMENT_SIZE = 8;

/** A step's estimated worst case (cost-estimate.ts) may not exceed 10 ms: over it, the step is refused at save. */
export const STEP_COST_LIMIT_NS = 10_000_000;

/** A hook run's time budget, enforced between the operations of a step while it runs. */
export const BUDGET_MS = 50;

/** Between two steps or rows, a run that has held the event loop this long lets other requests in first. */
export const YIELD_AFTER_MS = 2;

/** Each logged input, step result and step error: at most this many characters of JSON, else cut and marked. */
export const LOG_VALUE_CHARS = 2048;

/** All step results of one log entry together (later ones are cut to what is left), so a row stays small. */
export const LOG_STEPS_CHARS = 8192;

/** Hook log entries kept per database (oldest dropped first); with the two caps above, about 10 MB at most. */
export const LOG_ENTRIES_PER_DATABASE = 1000;
