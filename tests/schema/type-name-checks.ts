// Finds the places that tell column types apart by name (`c.type === "password"`, `case "json":`, a list of type
// names), for the guard in type-traits.test.ts.
import fs from "node:fs";
import path from "node:path";
import { COLUMN_TYPES } from "../../lib/schema/types";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NAME = `["'](?:${COLUMN_TYPES.join("|")})["']`;
const CHECKS = [
  new RegExp(`\\btype\\s*[!=]==?\\s*${NAME}`, "g"),
  new RegExp(`${NAME}\\s*[!=]==?\\s*[\\w.?!]*\\btype\\b`, "g"),
  new RegExp(`\\bcase\\s+${NAME}\\s*:`, "g"),
  new RegExp(`\\[\\s*${NAME}(?:\\s*,\\s*${NAME})*\\s*\\]\\s*\\.(?:includes|indexOf)\\(`, "g"),
  new RegExp(`(?:ColumnType\\[\\]|Set<ColumnType>|Set)\\s*(?:=|\\()\\s*(?:new Set(?:<\\w+>)?\\()?\\[\\s*${NAME}`, "g"),
];
const SOURCE = /\.(ts|tsx|mjs)$/;

const listFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(full) : SOURCE.test(e.name) && !e.name.endsWith(".d.mts") ? [full] : [];
  });

/** The table the types are described in: the one place their names belong. */
const TYPE_TABLE = "lib/schema/column-types.ts";

/** Type-name checks per file (relative to the root) under lib/, components/ and app/, the type table aside. */
export const typeNameChecks = (): Map<string, string[]> => {
  const found = new Map<string, string[]>();
  for (const dir of ["lib", "components", "app"]) {
    for (const file of listFiles(path.join(ROOT, dir))) {
      const source = fs.readFileSync(file, "utf8");
      const hits = CHECKS.flatMap((re) => [...source.matchAll(re)].map((m) => m[0]));
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      if (hits.length && rel !== TYPE_TABLE) found.set(rel, hits);
    }
  }
  return found;
};

/** The same search over a piece of source text (for the guard's own tests). */
export const checksIn = (source: string) => CHECKS.flatMap((re) => [...source.matchAll(re)].map((m) => m[0]));
