// Many SQLite databases in one process with few file descriptors: user databases are opened on demand and
// closed when idle or past the cap (lib/db/sqlite-handles.ts). Each case runs a child process under
// a lowered descriptor limit (prlimit, like `ulimit -n`; many-databases-child.ts) that goes through the management and data API cores. SQLite only:
// MariaDB databases are schemas on one server and hold no files in this process.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
// tmpfs when there is one: the case is about descriptors, not about the disk's fsync speed.
const scratchRoot = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();

type ChildResult = {
  limit: number;
  maxOpen: number;
  created: number;
  statuses: Record<string, number>;
  firstFailure?: { i: number; status: number; body: { error: string; message: string }; retryAfter: string | null };
  maxFds: number;
  finalFds: number;
  dashboardList: { status: number; count?: number };
  recovered?: number;
};

const runChild = (fdLimit: number, env: Record<string, string>): Promise<ChildResult> => {
  const dir = fs.mkdtempSync(path.join(scratchRoot, "tabula-scale-"));
  return new Promise<ChildResult>((resolve, reject) => {
    const args = ["--import", "tsx", "tests/scale/many-databases-child.ts"];
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, ...env, SCALE_DIR: dir, SCALE_FD_LIMIT: String(fdLimit) }, maxBuffer: 16 * 1024 * 1024, timeout: 590_000 }, (err, stdout, stderr) => {
      fs.rmSync(dir, { recursive: true, force: true });
      if (err) return reject(new Error(`child failed: ${err.message}\n${stderr.slice(-2000)}`));
      resolve(JSON.parse(stdout.trim().split("\n").at(-1)!));
    });
  });
};

describe("many SQLite databases under a low descriptor limit", () => {
  it("2,000 databases under ulimit -n 512: every one created, written and read twice; descriptors stay bounded; the list answers", async () => {
    const r = await runChild(512, { SCALE_DATABASES: "2000" });
    expect(r.limit).toBe(512);
    // 512 / 2 / (3 files for the main connection + 2 for each of the 3 reader threads' connections)
    expect(r.maxOpen).toBe(28);
    expect(r.statuses).toEqual({ "create 201": 2000, "write 201": 2000, "list 200": 2000, "reread 200": 2000 });
    expect(r.created).toBe(2000);
    // Never more than the open databases' files and a fixed remainder (metadata, threads, stdio).
    expect(r.maxFds).toBeLessThanOrEqual(28 * 9 + 64);
    expect(r.dashboardList).toEqual({ status: 200, count: 2000 });
  }, 600_000);

  it("out of descriptors (a cap above what the limit allows) is 503 unavailable with Retry-After, nothing half-made, and it recovers", async () => {
    const r = await runChild(160, { SCALE_DATABASES: "200", SQLITE_MAX_OPEN: "1000", SQLITE_READERS: "0", SQLITE_IDLE_SECONDS: "1", SCALE_STOP_ON_FAILURE: "1", SCALE_RECOVER: "1" });
    expect(r.created).toBeGreaterThan(5);
    expect(r.created).toBeLessThan(200);
    expect(r.firstFailure).toMatchObject({ status: 503, retryAfter: "1", body: { error: "unavailable" } });
    expect(r.firstFailure!.body.message).toMatch(/retry/i);
    // The refused database left no metadata behind: the list holds exactly the ones created.
    expect(r.dashboardList).toEqual({ status: 200, count: r.created });
    // Once idle databases are closed (1 s here), creating works again without a restart.
    expect(r.recovered).toBe(201);
  }, 300_000);
});
