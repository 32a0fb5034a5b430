// What the SQL console runs: one SELECT (or WITH … SELECT) over the database's own tables. The read-only
// transaction and connection refuse writes as well; these checks refuse early, name why, and close what a
// read-only transaction leaves open (files, locks, sleeps, other schemas, session variables).
import type { EngineKind } from "../config";
import { invalidField } from "../errors";
import { tokenizeSql } from "./tokenize-sql";

export const SQL_MAX_LENGTH = 100_000;

/** Words no read of the user's tables needs: writes, DDL, files, locks, sleeps, session and server commands. */
const REFUSED_WORDS = new Set([
  "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT", "CREATE", "DROP", "ALTER", "TRUNCATE", "RENAME",
  "GRANT", "REVOKE", "ATTACH", "DETACH", "PRAGMA", "VACUUM", "REINDEX", "ANALYZE", "INTO", "OUTFILE", "DUMPFILE",
  "LOAD", "HANDLER", "CALL", "DO", "EXECUTE", "PREPARE", "DEALLOCATE", "LOCK", "UNLOCK", "KILL", "SHUTDOWN", "FLUSH",
  "PURGE", "INSTALL", "UNINSTALL", "PROCEDURE", "COMMIT", "ROLLBACK", "SAVEPOINT", "BEGIN", "XA", "USE", "SHOW",
  "LOAD_FILE", "SLEEP", "BENCHMARK", "GET_LOCK", "RELEASE_LOCK", "RELEASE_ALL_LOCKS", "IS_FREE_LOCK", "IS_USED_LOCK",
  "MASTER_POS_WAIT", "MASTER_GTID_WAIT", "SOURCE_POS_WAIT", "SYS_EXEC", "SYS_EVAL", "NEXTVAL", "SETVAL", "LASTVAL",
  "LOAD_EXTENSION", "READFILE", "WRITEFILE", "EDIT", "FTS3_TOKENIZER", "DBSTAT", "TEMP", "TEMPORARY",
]);

/** Schemas and catalogs that are not the user's tables. */
const REFUSED_NAMES = new Set(["information_schema", "mysql", "performance_schema", "sys", "temp"]);
const REFUSED_PREFIXES = ["sqlite_", "pragma_"];

export type ConsoleScope = {
  engine: EngineKind;
  /** MariaDB: every other schema on the server (the metadata and the other databases), refused by name. */
  otherSchemas?: string[];
};

const refuse = (code: string, message: string) => invalidField("sql", code, message);

const refusedName = (name: string, others: Set<string>) => {
  const lower = name.toLowerCase();
  return REFUSED_NAMES.has(lower) || others.has(lower) || REFUSED_PREFIXES.some((p) => lower.startsWith(p));
};

/** The statement to run (without its trailing `;`), or a 422 on `sql` naming what is refused and why. */
export const checkConsoleSql = (sql: string, { engine, otherSchemas = [] }: ConsoleScope): string => {
  if (sql.includes("\u0000")) throw refuse("syntax", "SQL must not contain a NUL character");
  const { tokens, problem } = tokenizeSql(sql, engine);
  if (problem) throw refuse(problem.code, `SQL ${problem.message}`);
  if (tokens.length === 0) throw refuse("empty", "SQL is empty: write one SELECT statement");
  const others = new Set(otherSchemas.map((s) => s.toLowerCase()));
  const semicolons = tokens.flatMap((t, i) => (t.kind === "punct" && t.text === ";" ? [i] : []));
  if (semicolons.some((i) => i !== tokens.length - 1)) throw refuse("multiple_statements", "SQL holds more than one statement: run one SELECT at a time");
  const body = semicolons.length ? tokens.slice(0, -1) : tokens;
  const first = body.find((t) => !(t.kind === "punct" && t.text === "("));
  if (first?.kind !== "word" || !["SELECT", "WITH"].includes(first.upper)) {
    throw refuse("not_a_select", "only a SELECT (or WITH … SELECT) runs in the console, which is read-only");
  }
  for (const [i, t] of body.entries()) {
    if (t.kind === "variable") throw refuse("variables", "SQL uses a variable or parameter (@, ?, :name); write the value itself");
    if (t.kind === "word" && REFUSED_WORDS.has(t.upper)) {
      // `CHARACTER SET utf8mb4` inside CONVERT/CAST is a read; any other SET is not.
      throw refuse("refused_keyword", `SQL uses ${t.upper}, which the read-only console refuses (a column of that name must be quoted)`);
    }
    if (t.kind === "word" && t.upper === "SET" && !["CHARACTER", "CHARSET"].includes((body[i - 1] as { upper?: string })?.upper ?? "")) {
      throw refuse("refused_keyword", "SQL uses SET, which the read-only console refuses");
    }
    // A quoted name followed by `(` is a call all the same: `LOAD_FILE`(…) runs LOAD_FILE.
    const next = body[i + 1];
    if (t.kind === "name" && next?.kind === "punct" && next.text === "(" && REFUSED_WORDS.has(t.text.toUpperCase())) {
      throw refuse("refused_keyword", `SQL calls ${t.text.toUpperCase()}, which the read-only console refuses`);
    }
    if ((t.kind === "word" || t.kind === "name") && refusedName(t.text, others)) {
      throw refuse("other_schema", `SQL names "${t.text}", which is not one of this database's tables: the console reads only them`);
    }
  }
  const last = tokens[tokens.length - 1];
  // Without its `;` (and whatever comment follows it), so each driver sees exactly one statement.
  return semicolons.length && last.kind === "punct" ? sql.slice(0, last.at) : sql;
};
