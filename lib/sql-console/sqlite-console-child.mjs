// SQL console statements on SQLite databases, one at a time, in a process the parent keeps for many requests:
// better-sqlite3 cannot interrupt a running statement, so the parent enforces the time limit by killing this
// process (and starting another). Each connection is read-only (the file opened read-only, query_only on) and
// runs only a statement SQLite itself marks as a read; rows stop at maxRows or maxBytes of JSON.
import Database from "better-sqlite3";

const cell = (v) => (Buffer.isBuffer(v) ? `\\x${v.subarray(0, 256).toString("hex")}${v.length > 256 ? "…" : ""}` : typeof v === "bigint" ? String(v) : v);

const run = ({ file, sql, maxRows, maxBytes }) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma("query_only = ON");
    db.pragma("trusted_schema = OFF");
    const stmt = db.prepare(sql);
    if (!stmt.reader || !stmt.readonly) return { refused: "SQL is not a read: the console runs only a SELECT" };
    stmt.raw(true);
    const described = stmt.columns();
    const columns = described.map((c) => c.name);
    // The declared type of a column read straight from a table; null for an expression (SQLite types values, not results).
    const column_types = described.map((c) => c.type ?? null);
    const rows = [];
    let bytes = 0;
    let reason;
    const started = performance.now();
    for (const raw of stmt.iterate()) {
      if (rows.length === maxRows) reason = "rows";
      else {
        const row = raw.map(cell);
        const size = Buffer.byteLength(JSON.stringify(row));
        if (bytes + size > maxBytes) reason = "bytes";
        else {
          bytes += size;
          rows.push(row);
          continue;
        }
      }
      break;
    }
    const ms = Math.round(performance.now() - started);
    return reason ? { columns, column_types, rows, truncated: true, truncated_reason: reason, ms } : { columns, column_types, rows, truncated: false, ms };
  } finally {
    db.close();
  }
};

process.on("message", (job) => {
  let reply;
  try {
    reply = run(job);
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  process.send({ id: job.id, ...reply });
});
