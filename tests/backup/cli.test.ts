// `npx tabula backup` and `npx tabula restore` against a running server: the archive goes to a file and comes
// back as a new database with the same rows; a bad key is a clear error and a non-zero exit.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { dumpRows, makeKindsDatabase } from "./backup-fixture";

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, "../../bin/tabula.mjs");

describe.each(ENGINES)("the backup CLI on %s", (engine) => {
  let h: Harness;
  let db: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-cli-"));

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    db = await makeKindsDatabase(h, "cli source");
  }, 60_000);
  afterAll(async () => {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("backs up to a file and restores it as a new database with the same rows", async () => {
    const out = path.join(dir, "cli.tar.gz");
    const backup = await run("node", [CLI, "backup", db, "--out", out, "--url", h.baseUrl, "--key", h.accountKey]);
    expect(backup.stdout).toMatch(new RegExp(`^Backup \\d+ of ${db}: 4 tables, 6 rows, event \\d+, \\d+ bytes → ${out}`));
    expect(fs.statSync(out).size).toBeGreaterThan(0);
    const restored = await run("node", [CLI, "restore", out, "--name", "cli copy", "--url", h.baseUrl], { env: { ...process.env, TABULA_KEY: h.accountKey } });
    const instance = /instance (\w+),/.exec(restored.stdout)![1];
    expect((await dumpRows(h, instance)).rows).toEqual((await dumpRows(h, db)).rows);
  }, 60_000);

  it("a wrong key exits 1 naming the refusal", async () => {
    const failed = await run("node", [CLI, "backup", db, "--out", path.join(dir, "x.tar.gz"), "--url", h.baseUrl, "--key", "sk_wrong"]).catch((err) => err);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^tabula: 401 /);
    expect(fs.existsSync(path.join(dir, "x.tar.gz"))).toBe(false);
  });
});
