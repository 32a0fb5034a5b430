// SQLite console statements in a few child processes kept between requests (sqlite-console-child.mjs): one
// statement per child at a time, later ones wait for a free child. A child past the time limit is killed and
// a new one started in its place; idle children do not keep the process alive.
import { type ChildProcess, fork } from "node:child_process";
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

type Reply = { id: number } & (ConsoleResult | { refused: string } | { error: string });

export type SqliteConsole = {
  /** Runs a checked statement on the database file. */
  run: (file: string, statement: string) => Promise<ConsoleResult>;
  /** Process ids of the children alive now, and how many were started in all. */
  stats: () => { pids: number[]; started: number };
  close: () => void;
};

export const createSqliteConsole = ({ children, limits }: { children: number; limits: ConsoleLimits }): SqliteConsole => {
  const idle: ChildProcess[] = [];
  const all = new Set<ChildProcess>();
  const waiting: ((child: ChildProcess) => void)[] = [];
  let started = 0;
  let nextId = 1;

  const spawn = () => {
    const child = fork(childScript(), [], { stdio: ["ignore", "ignore", "ignore", "ipc"], execArgv: ["--max-old-space-size=256"] });
    started++;
    all.add(child);
    child.on("error", () => child.kill("SIGKILL")); // its exit ends the request it served
    child.once("exit", () => {
      all.delete(child);
      const at = idle.indexOf(child);
      if (at >= 0) idle.splice(at, 1);
    });
    return child;
  };
  const hold = (child: ChildProcess) => {
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
    return child;
  };
  const acquire = (): Promise<ChildProcess> => {
    const free = idle.pop();
    if (free) return Promise.resolve(hold(free));
    if (all.size < children) return Promise.resolve(spawn());
    return new Promise((resolve) => waiting.push((child) => resolve(hold(child))));
  };
  /** Gives the child to the next waiter, or keeps it idle; a dead child's place goes to a new one. */
  const giveBack = (child: ChildProcess | undefined) => {
    const next = waiting.shift();
    if (!next) {
      if (child) {
        child.unref();
        (child.channel as { unref?: () => void } | undefined)?.unref?.();
        idle.push(child);
      }
      return;
    }
    next(child ?? spawn());
  };

  const runOn = (child: ChildProcess, file: string, sql: string) =>
    new Promise<ConsoleResult>((resolve, reject) => {
      const id = nextId++;
      let settled = false;
      const settle = (keep: boolean, fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
        if (!keep) {
          child.kill("SIGKILL");
          all.delete(child);
        }
        giveBack(keep ? child : undefined);
        fn();
      };
      const timer = setTimeout(() => {
        settle(false, () => reject(invalidField("sql", "time_limit", `the query ran longer than ${limits.timeMs / 1000} s and was stopped; narrow it down with WHERE or LIMIT`)));
      }, limits.timeMs);
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        settle(true, () => {
          if ("refused" in reply) reject(invalidField("sql", "not_a_select", reply.refused));
          else if ("error" in reply) reject(invalidField("sql", "sql_error", `SQLite: ${reply.error}`));
          else {
            const { id: _, ...result } = reply;
            resolve(result);
          }
        });
      };
      const onExit = (code: number | null, signal: string | null) => settle(false, () => reject(new Error(`SQL console process ended (${signal ?? code}) without a reply`)));
      child.on("message", onMessage);
      child.once("exit", onExit);
      child.send({ id, file, sql, maxRows: limits.maxRows, maxBytes: limits.maxBytes });
    });

  return {
    run: async (file, statement) => runOn(await acquire(), file, statement),
    stats: () => ({ pids: [...all].map((c) => c.pid!).filter(Boolean), started }),
    close: () => {
      for (const child of all) child.kill("SIGKILL");
      all.clear();
      idle.length = 0;
    },
  };
};
