import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, resolveSpecifier } from "./helpers/imports";

// The dashboard reaches data only through the management and data APIs: nothing under components/ or the
// dashboard pages of app/ may import the storage, metadata, DDL or data-API layers, or a database driver.
// Route handlers (app/api/**, app/v1/**) are the adapters to those layers and are exempt.

const ROOT = path.resolve(import.meta.dirname, "..");
const FORBIDDEN_LIB = ["lib/db", "lib/meta", "lib/services", "lib/ddl", "lib/api"];
const FORBIDDEN_PACKAGES = ["kysely", "better-sqlite3", "mysql2"];
const SOURCE = /\.(ts|tsx|js|jsx|mjs)$/;

const listFiles = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        return e.isDirectory() ? listFiles(full) : SOURCE.test(e.name) ? [full] : [];
      })
    : [];

const isRouteHandler = (file: string) => {
  const rel = path.relative(path.join(ROOT, "app"), file).split(path.sep);
  return rel[0] === "api" || rel[0] === "v1";
};

export const dashboardFiles = () => [...listFiles(path.join(ROOT, "components")), ...listFiles(path.join(ROOT, "app")).filter((f) => !isRouteHandler(f))];

/** Why an import from `file` breaks the layering, or undefined when it is allowed. */
export const layeringProblem = (file: string, specifier: string): string | undefined => {
  const pkg = specifier.startsWith("@") && !specifier.startsWith("@/") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
  if (FORBIDDEN_PACKAGES.includes(pkg)) return `imports the database package "${specifier}"`;
  let target: string | undefined;
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) target = path.relative(ROOT, path.resolve(path.dirname(file), specifier));
  if (target === undefined) return undefined;
  const normalized = target.split(path.sep).join("/");
  const layer = FORBIDDEN_LIB.find((l) => normalized === l || normalized.startsWith(`${l}/`) || normalized.startsWith(`${l}.`));
  return layer && `imports ${layer} ("${specifier}"); use the management or data API instead`;
};

describe("dashboard layering", () => {
  it("finds the dashboard's files to check", () => {
    const files = dashboardFiles().map((f) => path.relative(ROOT, f));
    expect(files.some((f) => f.startsWith("components/"))).toBe(true);
    expect(files).toContain("app/page.tsx");
    expect(files.some((f) => f.startsWith("app/api/") || f.startsWith("app/v1/"))).toBe(false);
  });

  it("no component or dashboard page imports lib/db, lib/meta, lib/services, lib/ddl, lib/api or a database driver", () => {
    const problems = dashboardFiles().flatMap((file) =>
      importsOf(fs.readFileSync(file, "utf8"))
        .map((spec) => layeringProblem(file, spec))
        .filter(Boolean)
        .map((problem) => `${path.relative(ROOT, file)} ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  const page = path.join(ROOT, "app", "(dashboard)", "databases", "page.tsx");
  const component = path.join(ROOT, "components", "schema", "columns-grid.tsx");
  it.each([
    ["should block", page, "@/lib/db/engine"],
    ["should block", page, "@/lib/services/databases/list-databases"],
    ["should block", page, "@/lib/meta/load-schema"],
    ["should block", component, "../../lib/ddl/apply-tables"],
    ["should block", component, "../../lib/api/read-records"],
    ["should block", component, "kysely"],
    ["should block", component, "better-sqlite3"],
    ["should block", component, "mysql2/promise"],
  ])("%s %s importing %s", (_case, file, specifier) => {
    expect(layeringProblem(file, specifier)).toBeTypeOf("string");
  });

  it.each([
    ["should allow", component, "../api/management-client"],
    ["should allow", page, "@/components/databases/database-list"],
    ["should allow", component, "@/lib/schema/types"],
    ["should allow", component, "@tanstack/react-query"],
    ["should allow", component, "next/link"],
    ["should allow", component, "../../lib/database-helpers"],
  ])("%s %s importing %s", (_case, file, specifier) => {
    expect(layeringProblem(file, specifier)).toBeUndefined();
  });

  it("reads every import form", () => {
    const source = `import a from "x"; import type { B } from 'y'; export { c } from "z"; import "side"; const d = await import("dyn"); require("req");`;
    expect(importsOf(source).sort()).toEqual(["dyn", "req", "side", "x", "y", "z"]);
  });
});

// Inside lib, a value import never points up a layer: the foundations (column types, policies, joins, DDL) know
// nothing of the services, the storage layer nothing of the APIs, the data API nothing of the management API,
// the write kernel nothing of the metadata services, and the plan, settings and credit helpers nothing of the
// services that wrap them. Type-only imports are free (they vanish at build).
const LIB_RULES: { from: string[]; never: string[] }[] = [
  { from: ["lib/schema", "lib/rls", "lib/joins", "lib/ddl"], never: ["lib/api", "lib/meta", "lib/services", "lib/mgmt", "lib/http", "lib/db"] },
  { from: ["lib/db"], never: ["lib/api", "lib/meta", "lib/services", "lib/mgmt", "lib/hooks", "lib/http"] },
  { from: ["lib/api", "lib/db-auth"], never: ["lib/mgmt"] },
  { from: ["lib/api/write"], never: ["lib/meta", "lib/services", "lib/mgmt"] },
  { from: ["lib/plans", "lib/settings", "lib/credits"], never: ["lib/services", "lib/mgmt"] },
];

/** Module specifiers a file imports as values: `import type`, `export type` and `import("x").T` types are left out. */
export const valueImportsOf = (source: string) => {
  const specifiers = new Set<string>();
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s*["']([^"']+)["']/gms)) if (!m[1]) specifiers.add(m[2]);
  for (const m of source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)(?!\s*\.)/g)) specifiers.add(m[1]);
  return [...specifiers];
};

const within = (file: string, dirs: string[]) => dirs.find((d) => file === d || file.startsWith(`${d}/`) || file.startsWith(`${d}.`));

/** Why a value import from lib file `file` (relative to the root) breaks the lib layering, or undefined. */
export const libLayeringProblem = (file: string, specifier: string): string | undefined => {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier)).split(path.sep).join("/");
  for (const rule of LIB_RULES) {
    if (!within(file, rule.from)) continue;
    const layer = within(target, rule.never);
    if (layer) return `${file} imports ${layer} ("${specifier}")`;
  }
  return undefined;
};

describe("lib layering", () => {
  const libFiles = () => listFiles(path.join(ROOT, "lib")).map((f) => path.relative(ROOT, f).split(path.sep).join("/"));

  it("no lib module value-imports a layer above it", () => {
    const problems = libFiles().flatMap((file) => valueImportsOf(fs.readFileSync(path.join(ROOT, file), "utf8")).map((s) => libLayeringProblem(file, s)).filter(Boolean));
    expect(problems).toEqual([]);
  });

  it.each([
    ["should block", "lib/schema/column-types.ts", "../meta/load-schema"],
    ["should block", "lib/db/engine.ts", "../api/read-records"],
    ["should block", "lib/api/read-records.ts", "../mgmt/authorize"],
    ["should block", "lib/api/write/run-write.ts", "../../meta/context"],
    ["should block", "lib/joins/parse-join-definition.ts", "../services/joins/create-join"],
    ["should block", "lib/plans/quotas.ts", "../services/plans/put-plan"],
    ["should block", "lib/settings/read-settings.ts", "../mgmt/account-routes"],
    ["should allow", "lib/api/write/run-write.ts", "../../db/serialization-retry"],
    ["should allow", "lib/meta/context.ts", "../db/meta-transaction"],
    ["should allow", "lib/services/plans/put-plan.ts", "../../plans/effective-plan"],
    ["should allow", "lib/schema/column-types.ts", "./types"],
  ])("%s %s importing %s", (verdict, file, specifier) => {
    const problem = libLayeringProblem(file, specifier);
    if (verdict === "should block") expect(problem).toBeTypeOf("string");
    else expect(problem).toBeUndefined();
  });

  it("tells value imports from type-only ones", () => {
    const source = `import a from "./x";\nimport type { B } from "./y";\nexport type { C } from "./z";\nexport { d } from "./w";\ntype E = import("./t").E;\nconst f = await import("./dyn");`;
    expect(valueImportsOf(source).sort()).toEqual(["./dyn", "./w", "./x"]);
  });
});

// Every lib folder (and top-level file) has a rank; an import, `import type` included, may point to its own rank
// or lower. Ranks from the top: the composition root, the transport that routes requests, the HTTP routes, the
// services, the input contract both share, the data API, the metadata kernel, the lower kernel, then the base.
const RANK = { root: 9, transport: 8, routes: 7, services: 6, contract: 5, data: 4, meta: 3, kernel: 2, base: 1 } as const;
export const LIB_RANKS: Record<string, keyof typeof RANK> = {
  "lib/app.ts": "root",
  "lib/transport": "transport",
  "lib/mgmt": "routes",
  "lib/mcp": "routes",
  "lib/contract": "contract",
  "lib/openapi": "routes",
  "lib/billing": "routes",
  "lib/services": "services",
  "lib/ai": "services",
  "lib/auth": "services",
  "lib/docs": "services",
  "lib/backup": "services",
  "lib/api": "data",
  "lib/db-auth": "data",
  "lib/events/feed": "data",
  "lib/meta": "meta",
  "lib/plans": "meta",
  "lib/credits": "meta",
  "lib/teams": "meta",
  "lib/webhooks": "meta",
  "lib/events": "kernel",
  "lib/hooks": "kernel",
  "lib/rls": "kernel",
  "lib/ddl": "kernel",
  "lib/joins": "kernel",
  "lib/keys": "kernel",
  "lib/settings": "kernel",
  "lib/sql-console": "kernel",
  "lib/files": "kernel",
  "lib/mail": "kernel",
  "lib/db": "base",
  "lib/schema": "base",
  "lib/http": "base",
  "lib/ops": "base",
  "lib/limits": "base",
  "lib/errors.ts": "base",
  "lib/config.ts": "base",
  "lib/app-type.ts": "base",
  "lib/lru-map.ts": "base",
};
const MAX_CLIMBS = 20;

/** The rank of a lib file (relative to the root) by its longest entry in the table, or undefined. */
export const rankOf = (file: string, ranks = LIB_RANKS) => {
  const entry = Object.keys(ranks)
    .filter((k) => file === k || file.startsWith(`${k}/`))
    .sort((a, b) => b.length - a.length)[0];
  return entry === undefined ? undefined : RANK[ranks[entry]];
};

/** Entries directly under lib/ that the rank table leaves out. */
export const unrankedEntries = (entries: string[], ranks = LIB_RANKS) => entries.filter((e) => rankOf(e, ranks) === undefined);

/** Every import inside lib that points to a higher rank, as "from → to". */
export const climbingImports = () =>
  listFiles(path.join(ROOT, "lib")).flatMap((file) => {
    const from = path.relative(ROOT, file).split(path.sep).join("/");
    return importsOf(fs.readFileSync(file, "utf8")).flatMap((spec) => {
      const target = resolveSpecifier(file, spec);
      const to = target && path.relative(ROOT, target).split(path.sep).join("/");
      return to?.startsWith("lib/") && rankOf(to)! > rankOf(from)! ? [`${from} → ${to}`] : [];
    });
  });

describe("lib layer ranks", () => {
  const entries = fs.readdirSync(path.join(ROOT, "lib")).filter((e) => !e.endsWith(".d.ts") && !e.endsWith(".d.mts")).map((e) => `lib/${e}`);

  it("ranks every folder and file directly under lib/", () => {
    expect(unrankedEntries(entries)).toEqual([]);
  });

  it("reports a folder the table leaves out", () => {
    expect(unrankedEntries(["lib/db", "lib/new-folder", "lib/new-file.ts"])).toEqual(["lib/new-folder", "lib/new-file.ts"]);
  });

  it(`keeps the imports that climb a rank at ${MAX_CLIMBS} or fewer`, () => {
    const climbs = climbingImports();
    expect(climbs.length, `imports that climb a rank:\n${climbs.join("\n")}`).toBeLessThanOrEqual(MAX_CLIMBS);
  });

  it.each([
    ["lib/meta/load-schema.ts", "lib/services/auth/update-auth.ts", true],
    ["lib/events/outbox/record-change.ts", "lib/api/build-sql.ts", true],
    ["lib/services/tables/create-table.ts", "lib/mgmt/route.ts", true],
    ["lib/api/read-records.ts", "lib/meta/schema-cache.ts", false],
    ["lib/events/feed/serve-changes.ts", "lib/events/outbox/read-events.ts", false],
    ["lib/services/tables/create-table.ts", "lib/services/joins/create-join.ts", false],
  ])("%s importing %s climbs: %s", (from, to, climbs) => {
    expect(rankOf(to)! > rankOf(from)!).toBe(climbs);
  });
});
