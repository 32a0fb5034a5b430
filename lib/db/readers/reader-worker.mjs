// A reader thread (reader-pool.ts): runs read-only SQL on its own connections to user databases, so a long scan
// never holds up the main thread's event loop, and copies written databases' WAL into their files (PASSIVE
// checkpoints), so that copy and its sync never run on the main thread either. The connections are opened for
// writing only because a checkpoint needs it: `query_only` refuses every change through them, and a statement
// that is not a read is refused before it runs. Plain JavaScript: it loads the same way under tsx, vitest, the
// production server and Next.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { readPageJson } from "../page-json.mjs";
import { addSqlFunctions } from "../sqlite-functions.mjs";

const STATEMENT_CACHE_SIZE = 200;
/** file → { db, statements, checkpointed: when its last checkpoint ended, held: a checkpoint waiting for its gap } */
const connections = new Map();

const connectionTo = (file) => {
  let c = connections.get(file);
  if (!c) {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma("query_only = ON");
      db.pragma("busy_timeout = 5000");
      db.pragma(`cache_size = ${-1024 * workerData.cacheMb}`);
      addSqlFunctions(db);
    } catch (err) {
      db.close();
      throw err;
    }
    c = { db, statements: new Map(), checkpointed: 0, held: undefined };
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
  const c = connections.get(file);
  if (!c) return;
  clearTimeout(c.held);
  c.db.close();
  connections.delete(file);
};

/**
 * Copies the WAL's committed pages into the database file, at most once per `gapMs` for one database. PASSIVE
 * waits for no lock and blocks neither the readers nor the writer; it stops short of pages a reader still needs.
 * Then says which database it was, so the main thread may ask again.
 */
const checkpoint = (file, physical, gapMs) => {
  let c;
  try {
    c = connectionTo(file);
  } catch {
    parentPort.postMessage({ checkpointed: physical });
    return;
  }
  if (c.held) return;
  const run = () => {
    c.held = undefined;
    try {
      c.db.pragma("wal_checkpoint(PASSIVE)");
    } catch {
      // the next write asks again, and the writing connection's own automatic checkpoint is the backstop
    }
    c.checkpointed = Date.now();
    parentPort.postMessage({ checkpointed: physical });
  };
  const wait = c.checkpointed + gapMs - Date.now();
  if (wait <= 0) run();
  else c.held = setTimeout(run, wait);
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
  } else if (m.type === "checkpoint") {
    checkpoint(m.file, m.physical, m.gapMs);
  } else if (m.type === "close") {
    const held = connections.get(m.file)?.held;
    closeFile(m.file);
    if (held) parentPort.postMessage({ checkpointed: m.physical });
  } else if (m.type === "clear") {
    for (const [file, c] of connections) if (!m.file || m.file === file) c.statements.clear();
  }
});
