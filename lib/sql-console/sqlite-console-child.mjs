// One SQL console statement on a SQLite database, in a process of its own: better-sqlite3 cannot interrupt a
// running statement, so the parent enforces the time limit by killing this process. The connection is read-only
// (the file opened read-only, query_only on) and runs only a statement SQLite itself marks as a read.
import Database from "better-sqlite3";

const cell = (v) => (Buffer.isBuffer(v) ? `\\x${v.subarray(0, 256).toString("hex")}${v.length > 256 ? "…" : ""}` : typeof v === "bigint" ? String(v) : v);

process.once("message", ({ file, sql, maxRows }) => {
  let reply;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma("query_only = ON");
    db.pragma("trusted_schema = OFF");
    const stmt = db.prepare(sql);
    if (!stmt.reader || !stmt.readonly) {
      reply = { refused: "SQL is not a read: the console runs only a SELECT" };
    } else {
      stmt.raw(true);
      const columns = stmt.columns().map((c) => c.name);
      const rows = [];
      let truncated = false;
      const started = performance.now();
      for (const row of stmt.iterate()) {
        if (rows.length === maxRows) {
          truncated = true;
          break;
        }
        rows.push(row.map(cell));
      }
      reply = { columns, rows, truncated, ms: Math.round(performance.now() - started) };
    }
    db.close();
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  process.send(reply, () => process.exit(0));
});
