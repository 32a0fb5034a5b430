// A reader thread (reader-pool.ts): runs read-only SQL on its own read-only connections to user databases,
// so a long scan never holds up the main thread's event loop. Plain JavaScript: it loads the same way
// under tsx, vitest, the production server and Next.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { readPageJson } from "../page-json.mjs";
import { addSqlFunctions } from "../sqlite-functions.mjs";

const STATEMENT_CACHE_SIZE = 200;
/** file → { db, statements } */
const connections = new Map();

const connectionTo = (file) => {
  let c = connections.get(file);
  if (!c) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      db.pragma("busy_timeout = 5000");
      db.pragma(`cache_size = ${-1024 * workerData.cacheMb}`);
      addSqlFunctions(db);
    } catch (err) {
      db.close();
      throw err;
    }
    c = { db, statements: new Map() };
    connections.set(file, c);
  }
  return c;
};

const prepare = (c, text) => {
  let stmt = c.statements.get(text);
  if (!stmt) {
    stmt = c.db.prepare(text);
    if (!stmt.reader) throw new Error("A reader thread runs reads only.");
    if (c.statements.size >= STATEMENT_CACHE_SIZE) c.statements.delete(c.statements.keys().next().value);
    c.statements.set(text, stmt);
  }
  return stmt;
};

// A Buffer arrives on the main thread as a plain Uint8Array; say so, and it is made a Buffer again there.
const hasBlob = (rows) => rows.some((row) => Object.values(row).some((v) => v instanceof Uint8Array));

const closeFile = (file) => {
  connections.get(file)?.db.close();
  connections.delete(file);
};

/** Answers request `id` with what `run` returns, or with its error as plain data. */
const answer = (id, run) => {
  try {
    parentPort.postMessage({ id, ...run() });
  } catch (err) {
    parentPort.postMessage({ id, error: { name: err?.name, message: String(err?.message ?? err), code: err?.code } });
  }
};

parentPort.on("message", (m) => {
  if (m.type === "read") {
    answer(m.id, () => {
      const rows = prepare(connectionTo(m.file), m.sql).all(m.params);
      return { rows, blobs: hasBlob(rows) };
    });
  } else if (m.type === "page") {
    answer(m.id, () => ({ page: readPageJson(prepare(connectionTo(m.file), m.sql), m.params, m.output, m.limit) }));
  } else if (m.type === "close") {
    closeFile(m.file);
  } else if (m.type === "clear") {
    for (const [file, c] of connections) if (!m.file || m.file === file) c.statements.clear();
  }
});
