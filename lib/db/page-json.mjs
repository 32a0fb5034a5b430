// A page of a list read, shaped into its JSON text where its rows are read (a reader thread, or the main
// thread without them): rows come back as arrays (better-sqlite3's raw mode, no object per row) and only the
// text crosses to the main thread, not the rows. Plain JavaScript: the reader threads load it too.
import { TO_JSON } from "../schema/to-json.mjs";

/** statement → column name → position in its raw rows */
const positions = new WeakMap();

const positionsOf = (stmt) => {
  let at = positions.get(stmt);
  if (!at) positions.set(stmt, (at = new Map(stmt.columns().map((c, i) => [c.name, i]))));
  return at;
};

/**
 * Runs the page's statement (it reads `limit` + 1 rows) and answers `{ json, more, last }`: the records of at
 * most `limit` rows as JSON text, each with the `output` columns ([name, column type]) in order; whether
 * another page follows; and then the last record's row as an object (its `_k…` keys make the next cursor).
 */
export const readPageJson = (stmt, params, output, limit) => {
  const at = positionsOf(stmt);
  stmt.raw(true);
  let rows;
  try {
    rows = stmt.all(params);
  } finally {
    stmt.raw(false);
  }
  const fields = output.map(([name, type]) => [name, TO_JSON[type], at.get(name)]);
  const count = Math.min(rows.length, limit);
  const records = new Array(count);
  for (let i = 0; i < count; i++) {
    const row = rows[i];
    const record = {};
    for (const [name, toJson, position] of fields) record[name] = toJson(position === undefined ? undefined : row[position]);
    records[i] = record;
  }
  const more = rows.length > limit;
  let last;
  if (more && count > 0) {
    last = {};
    for (const [name, position] of at) last[name] = rows[count - 1][position];
  }
  return { json: JSON.stringify(records), more, last };
};
