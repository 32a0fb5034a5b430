import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The docs a newcomer reads first stay true to the tree (the code map names every folder of lib/), and project
// files speak of the product only: no issue numbers, no pointers to documents outside the repository.
const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

const libFolders = () =>
  fs
    .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `lib/${e.name}`);

/** Tracked and new (not ignored) text files, as git lists them; node_modules and the lock file are not ours. */
const projectFiles = () =>
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.startsWith("node_modules/") && f !== "package-lock.json" && fs.existsSync(path.join(ROOT, f)))
    .filter((f) => !/\.(ico|png|jpe?g|gif|webp|woff2?)$/.test(f));

/** `file:line: text` of every line matching `pattern` in the project's files. */
const linesMatching = (pattern: RegExp) =>
  projectFiles().flatMap((file) =>
    read(file)
      .split("\n")
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );

// Spelled in parts so this file does not match itself.
const ISSUE_NUMBER = new RegExp(["iss", "ue #?\\d+"].join(""), "i");
const OUTSIDE = new RegExp(["PRODUCT", "\\.md|shared", "/spec|\\.\\./shared(?!/peers)"].join(""));

describe("docs", () => {
  it("docs/architecture.md's code map names every folder of lib/", () => {
    const codeMap = read("docs/architecture.md").split("## Code map")[1] ?? "";
    const named = (folder: string) => new RegExp(`\\*\\*${folder}\\*\\*`).test(codeMap);
    expect(libFolders().filter((folder) => !named(folder))).toEqual([]);
  });

  it("no project file names an issue number", () => {
    expect(linesMatching(ISSUE_NUMBER)).toEqual([]);
  });

  it("no project file points at the product documents outside the repository (the peers harness aside)", () => {
    expect(linesMatching(OUTSIDE)).toEqual([]);
  });

  it("README.md stays a front page of at most 250 lines, its links to docs/ resolving", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !fs.existsSync(path.join(ROOT, link)))).toEqual([]);
  });
});
