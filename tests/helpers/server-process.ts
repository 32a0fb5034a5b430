// The production server (server.ts, or its bundle) as a child process with DASHBOARD=off, on a harness's install: for
// tests of what only a real process shows (SIGTERM, its JSON log lines, several processes on one store).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { Reply } from "./harness";
import type { Harness } from "./harness";
import { freePort, requester } from "../limits/limits-fixture";
import { currentBundle } from "../../scripts/build-server.mjs";

export type LogLine = { level: string; msg: string; reqId?: string; [field: string]: unknown };

export type ServerProcess = {
  base: string;
  port: number;
  child: ChildProcess;
  request: (method: string, urlPath: string, key: string | null) => Promise<Reply>;
  /** Every line the server has printed so far, parsed (a line that is not JSON fails the test). */
  logs: () => LogLine[];
  /** Everything printed so far, stdout and stderr, as text. */
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

const ROOT = path.resolve(import.meta.dirname, "../..");

/** server.ts itself, compiled through tsx as the process starts (1-2 s more than the bundle). */
export const SOURCE_ENTRY = ["--import", "tsx", "server.ts"];

/**
 * `entry`: node's arguments for the server. Unless given, the bundle `npm start` runs (scripts/build-server.mjs) when
 * it was built after the last change to server.ts and lib/ (npm test's browser suite builds it), else SOURCE_ENTRY.
 */
export const startServerProcess = async (h: Harness, env: Record<string, string> = {}, entry?: string[]): Promise<ServerProcess> => {
  const bundle = entry ? undefined : currentBundle();
  entry ??= bundle ? [bundle] : SOURCE_ENTRY;
  const port = await freePort();
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DASHBOARD: "off",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: h.app.config.dataDir,
      DATABASE_URL: h.app.config.databaseUrl ?? "",
      TABULA_SECRET: "",
      BCRYPT_COST: "4",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => void (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const logs = () =>
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as LogLine;
        } catch {
          throw new Error(`a log line that is not JSON: ${line}`);
        }
      });
  const base = `http://127.0.0.1:${port}`;
  const answers = () => fetch(`${base}/healthz`).then((r) => r.ok, () => false);
  const deadline = Date.now() + 30_000;
  while (!(await answers())) {
    if (child.exitCode !== null) throw new Error(`${entry.join(" ")} exited (${child.exitCode}):\n${out}\n${err}`);
    if (Date.now() > deadline) throw new Error(`${entry.join(" ")} did not start within 30 s:\n${out}\n${err}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    port,
    child,
    request: requester(base),
    logs,
    output: () => out + err,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
};
