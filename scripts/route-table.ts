// Rewrites the route table in docs/api.md from lib/mgmt/routes.ts (tests/permissions/docs-table.test.ts
// checks the two are equal). Run: npx tsx scripts/route-table.ts
import fs from "node:fs";
import path from "node:path";
import { ROUTES } from "../lib/mgmt/routes";

const file = path.resolve(import.meta.dirname, "../docs/api.md");
const doc = fs.readFileSync(file, "utf8");
const start = "<!-- routes:start -->";
const end = "<!-- routes:end -->";
const rows = ROUTES.map(({ method, path: p, permission, operationId }) =>
  `| ${method} | \`/api/v1/${p.replace(/:(\w+)/g, "{$1}")}\` | \`${permission}\` | ${operationId} |`);
const table = [start, "| method | path | permission | operation |", "|---|---|---|---|", ...rows, end].join("\n");
fs.writeFileSync(file, doc.slice(0, doc.indexOf(start)) + table + doc.slice(doc.indexOf(end) + end.length));
console.log(`docs/api.md: ${rows.length} routes`);
