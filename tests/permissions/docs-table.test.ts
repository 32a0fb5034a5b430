// docs/api.md lists every management route with its permission; the list must equal the route table.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../lib/mgmt/routes";

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/api.md"), "utf8");

const documentedRoutes = () => {
  const block = DOC.slice(DOC.indexOf("<!-- routes:start -->"), DOC.indexOf("<!-- routes:end -->"));
  return [...block.matchAll(/^\| (\w+) \| `\/api\/v1\/([^`]+)` \| `([\w:]+)` \| (\w+) \|$/gm)].map(([, method, p, permission, operationId]) => ({
    method,
    path: p.replace(/\{(\w+)\}/g, ":$1"),
    permission,
    operationId,
  }));
};

describe("docs/api.md", () => {
  it("lists exactly the route table's routes, each with its permission", () => {
    const routes = ROUTES.map(({ method, path: p, permission, operationId }) => ({ method, path: p, permission, operationId }));
    expect(documentedRoutes()).toEqual(routes);
  });
});
