import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, resolveSpecifier } from "./helpers/imports";

// No import circles in lib/, components/ or app/: every edge counts, `import type` and `import("x").T` too, so
// each module can be read (and typed) after the ones it names. A circle is reported as its files, sorted.

const ROOT = path.resolve(import.meta.dirname, "..");
const DIRS = ["lib", "components", "app"];
const SOURCE = /\.(ts|tsx|mjs|js)$/;

const listFiles = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        return e.isDirectory() ? listFiles(full) : SOURCE.test(e.name) && !e.name.endsWith(".d.ts") ? [full] : [];
      })
    : [];

/** Each file → the files it imports, over the files given. */
export const importGraph = (files: string[]) => {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(fs.readFileSync(file, "utf8")).map((s) => resolveSpecifier(file, s));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined && known.has(t) && t !== file))]);
  }
  return graph;
};

/** Strongly connected components of more than one node (Tarjan); a self-import is left out above. */
export const findCircles = (graph: Map<string, string[]>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
};

describe("import graph", () => {
  const files = DIRS.flatMap((d) => listFiles(path.join(ROOT, d)));
  const graph = importGraph(files);
  const relative = (f: string) => path.relative(ROOT, f).split(path.sep).join("/");

  it("resolves the imports of lib/, components/ and app/ to their files", () => {
    const edges = (file: string) => (graph.get(path.join(ROOT, file)) ?? []).map(relative);
    expect(files.length).toBeGreaterThan(300);
    expect(edges("lib/app.ts")).toContain("lib/config.ts");
    expect(edges("app/page.tsx").some((f) => f.startsWith("components/"))).toBe(true);
  });

  it("has no import circle", () => {
    const circles = findCircles(graph).map((c) => c.map(relative).join(" ↔ "));
    expect(circles).toEqual([]);
  });

  it("finds circles of more than one file, and none in a chain", () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(findCircles(g({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([["a", "b", "c"]]);
    expect(findCircles(g({ a: ["b"], b: ["c"], c: [] }))).toEqual([]);
    expect(findCircles(g({ a: ["b"], b: ["a"], c: ["d"], d: ["c"] })).length).toBe(2);
  });

  it("closes a circle through `import type`, a re-export, a dynamic import and an index file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-graph-"));
    const write = (name: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    };
    write("a.ts", `import type { B } from "./b";\nexport type A = B;`);
    write("b.ts", `export { c as B } from "./c";`);
    write("c/index.ts", `export const c = () => import("../a.js");`);
    write("d.ts", `import { c } from "./c";`);
    try {
      const files = ["a.ts", "b.ts", "c/index.ts", "d.ts"].map((f) => path.join(dir, f));
      expect(findCircles(importGraph(files))).toEqual([files.slice(0, 3).sort()]);
      write("c/index.ts", `export const c = 1;`);
      expect(findCircles(importGraph(files))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("resolves relative, `@/`, extensionless and index specifiers", () => {
    const from = path.join(ROOT, "lib", "app.ts");
    expect(resolveSpecifier(from, "./config")).toBe(path.join(ROOT, "lib", "config.ts"));
    expect(resolveSpecifier(from, "@/lib/config")).toBe(path.join(ROOT, "lib", "config.ts"));
    expect(resolveSpecifier(from, "kysely")).toBeUndefined();
  });
});
