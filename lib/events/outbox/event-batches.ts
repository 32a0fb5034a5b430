// How a write's event rows are cut into INSERT statements: at most MAX_EVENT_ROWS per statement (SQLite binds
// 9 variables per row and allows 32,766), and on MySQL at most `maxBytes` of values per statement, so a batch
// of big rows stays under the server's max_allowed_packet (engine.ts reads it once).

export const MAX_EVENT_ROWS = 1000;

/** Per row: values escaped by the driver at most double (quotes, backslashes), plus the short columns and SQL. */
const ROW_OVERHEAD = 256;

export const eventRowBytes = (record: string, oldRecord: string | null) => 2 * (Buffer.byteLength(record) + (oldRecord === null ? 0 : Buffer.byteLength(oldRecord))) + ROW_OVERHEAD;

/** SQLite: big events are cut into statements of about this much, so other requests run between them. */
export const SQLITE_BATCH_BYTES = 8 * 1024 * 1024;

/** The share of max_allowed_packet one statement may fill; the rest is headroom. */
export const PACKET_SHARE = 0.75;

/**
 * Consecutive slices of `rows`, each at most MAX_EVENT_ROWS long and (when `maxBytes` is given) at most
 * `maxBytes` by `size`; a row bigger than that alone goes in a slice of its own.
 */
export const splitEventBatches = <T>(rows: T[], size: (row: T) => number, maxBytes?: number): T[][] => {
  if (rows.length <= 1 || (maxBytes === undefined && rows.length <= MAX_EVENT_ROWS)) return [rows];
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    const n = maxBytes === undefined ? 0 : size(row);
    if (current.length > 0 && (current.length >= MAX_EVENT_ROWS || (maxBytes !== undefined && bytes + n > maxBytes))) {
      batches.push(current);
      [current, bytes] = [[], 0];
    }
    current.push(row);
    bytes += n;
  }
  if (current.length) batches.push(current);
  return batches;
};
