import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The docs a newcomer reads first stay true to the tree: the code map names every folder of lib/.
const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

const libFolders = () =>
  fs
    .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `lib/${e.name}`);

describe("docs", () => {
  it("docs/architecture.md's code map names every folder of lib/", () => {
    const codeMap = read("docs/architecture.md").split("## Code map")[1] ?? "";
    const named = (folder: string) => new RegExp(`\\*\\*${folder}\\*\\*`).test(codeMap);
    expect(libFolders().filter((folder) => !named(folder))).toEqual([]);
  });
});
