// Starts and stops bench/server.ts child processes, and reads their memory from /proc.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Target } from "./setup";

export type Mode = "tabula" | "ceiling";

export type Child = {
  mode: Mode;
  pid: number;
  url: string;
  /** Starts the CPU profile (when started with profileDir); it covers what follows until stop. */
  startProfile: () => void;
  /** Resolves once the server handles no request (the warm-up's backlog is drained). */
  waitIdle: () => Promise<void>;
  /** Peak resident set (VmHWM) of the child so far, in MB. */
  peakRssMb: () => number | undefined;
  stop: () => Promise<void>;
};

const live = new Set<ChildProcess>();

/** Kills every child still running; safe to call from exit handlers. */
export const killChildren = () => {
  for (const proc of live) if (proc.exitCode === null && proc.pid) process.kill(proc.pid, "SIGKILL");
  live.clear();
};

const readStatusKb = (pid: number, field: string) => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined; // not Linux, or the process is gone
  }
};

/** The V8 flags `npm start` gives node (package.json's start script), so the bench's servers run as it does. */
export const startNodeFlags = (root: string): string[] => {
  const start: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith("--"));
};

/** Peak resident set (VmHWM) of a process so far, in MB; undefined when it cannot be read. */
export const peakRssMbOf = (pid: number) => {
  const kb = readStatusKb(pid, "VmHWM");
  return kb === undefined ? undefined : Math.round(kb / 102.4) / 10;
};

export const startChild = (mode: Mode, target: Target, options: { profileDir?: string } = {}): Promise<Child> => {
  const root = path.resolve(import.meta.dirname, "..");
  // Source maps let the profile summary name tsx's minified functions.
  const flags = [...startNodeFlags(root), ...(options.profileDir ? ["--enable-source-maps"] : [])];
  const proc = spawn(process.execPath, [...flags, "--import", "tsx", path.join("bench", "server.ts"), mode], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      BENCH_ENGINE: target.engine,
      BENCH_DATA_DIR: target.config.dataDir,
      BENCH_DATABASE_URL: target.config.databaseUrl ?? "",
      BENCH_PHYSICAL: target.physical,
      BENCH_FILES_PREFIX: target.filesPrefix,
      BENCH_PROFILE_DIR: options.profileDir ?? "",
    },
  });
  live.add(proc);
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  exited.then(() => live.delete(proc));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`${mode} server did not start within 30 s`)), 30_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      if (proc.exitCode === null) proc.kill("SIGKILL");
      reject(err);
    };
    const onEarlyExit = (code: number | null) => fail(new Error(`${mode} server exited with code ${code} before it was ready`));
    proc.once("exit", onEarlyExit);
    proc.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /READY (\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      proc.off("exit", onEarlyExit);
      proc.stdout!.removeAllListeners("data").resume();
      const pid = proc.pid!;
      resolve({
        mode,
        pid,
        url: `http://127.0.0.1:${match[1]}`,
        waitIdle: async () => {
          const until = Date.now() + 60_000;
          while ((await (await fetch(`http://127.0.0.1:${match[1]}/__bench/inflight`)).text()) !== "0") {
            if (Date.now() > until) throw new Error(`${mode} server still busy 60 s after the load stopped`);
            await new Promise((r) => setTimeout(r, 20));
          }
        },
        startProfile: () => {
          if (options.profileDir) proc.kill("SIGUSR2");
        },
        peakRssMb: () => peakRssMbOf(pid),
        stop: async () => {
          if (proc.exitCode !== null) return;
          proc.kill("SIGTERM");
          const timeout = setTimeout(() => proc.kill("SIGKILL"), 30_000);
          await exited;
          clearTimeout(timeout);
        },
      });
    });
  });
};

/** A loopback port free right now (the OS picks it; closed again before it is handed on). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
