// A MariaDB server of one test alone (its own datadir and port), which the test may kill and start again to
// play an outage. The machine's own MariaDB on 3306 is never touched.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../limits/limits-fixture";

const INSTALL_DB = "/usr/bin/mariadb-install-db";
const MARIADBD = "/usr/sbin/mariadbd";
export const hasMariadbServer = fs.existsSync(INSTALL_DB) && fs.existsSync(MARIADBD);

export type PrivateMariadb = {
  /** mysql://root@127.0.0.1:<port>/ (no password). */
  url: string;
  port: number;
  start: () => Promise<void>;
  /** Kills it as a crash would (SIGKILL): clients see their connections drop and new ones refused. */
  kill: () => Promise<void>;
  /** Stops it and removes its datadir. */
  destroy: () => Promise<void>;
};

export const startPrivateMariadb = async (): Promise<PrivateMariadb> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-mariadb-"));
  const datadir = path.join(dir, "data");
  const user = os.userInfo().username;
  const install = spawnSync(INSTALL_DB, ["--no-defaults", `--datadir=${datadir}`, "--auth-root-authentication-method=normal", "--skip-test-db", `--user=${user}`], { encoding: "utf8" });
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return; // already running
    const proc = spawn(
      MARIADBD,
      ["--no-defaults", `--datadir=${datadir}`, `--port=${port}`, "--bind-address=127.0.0.1", `--socket=${path.join(dir, "sock")}`, `--pid-file=${path.join(dir, "pid")}`, `--user=${user}`, "--skip-log-bin", "--innodb-buffer-pool-size=16M", "--skip-name-resolve"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let log = "";
      const timer = setTimeout(() => reject(new Error(`mariadbd did not start within 30 s:\n${log}`)), 30_000);
      proc.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        if (/ready for connections/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`mariadbd exited (${code}):\n${log}`));
      });
    });
  };

  const stop = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill(signal);
    });

  await start();
  return {
    url: `mysql://root@127.0.0.1:${port}/`,
    port,
    start,
    kill: () => stop("SIGKILL"),
    destroy: async () => {
      await stop("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};
