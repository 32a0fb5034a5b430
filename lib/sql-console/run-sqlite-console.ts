import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { invalidField } from "../errors";
import type { ConsoleLimits, ConsoleResult } from "./console-limits";

const CHILD_FILE = "sqlite-console-child.mjs";

/** Beside this module from source (tsx, vitest, the production server); from the project folder inside a Next bundle. */
const childScript = () => {
  const here = (() => {
    try {
      return path.dirname(fileURLToPath(import.meta.url));
    } catch {
      return undefined;
    }
  })();
  const candidates = [here && path.join(here, CHILD_FILE), path.resolve("lib", "sql-console", CHILD_FILE)];
  const found = candidates.find((f): f is string => !!f && fs.existsSync(f));
  if (!found) throw new Error(`${CHILD_FILE} not found`);
  return found;
};

type Reply = ConsoleResult | { refused: string } | { error: string };

/** Runs a checked statement on the database file in a child process killed when the time limit passes. */
export const runSqliteConsole = (file: string, sql: string, limits: ConsoleLimits): Promise<ConsoleResult> =>
  new Promise((resolve, reject) => {
    const child = fork(childScript(), [], { stdio: ["ignore", "ignore", "ignore", "ipc"], execArgv: ["--max-old-space-size=256"] });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle(() => reject(invalidField("sql", "time_limit", `the query ran longer than ${limits.timeMs / 1000} s and was stopped; narrow it down with WHERE or LIMIT`)));
    }, limits.timeMs);
    child.once("message", (reply: Reply) =>
      settle(() => {
        if ("refused" in reply) reject(invalidField("sql", "not_a_select", reply.refused));
        else if ("error" in reply) reject(invalidField("sql", "sql_error", `SQLite: ${reply.error}`));
        else resolve(reply);
      }),
    );
    child.once("exit", (code, signal) => settle(() => reject(new Error(`SQL console process ended (${signal ?? code}) without a reply`))));
    child.once("error", (err) => settle(() => reject(err)));
    child.send({ file, sql, maxRows: limits.maxRows });
  });
