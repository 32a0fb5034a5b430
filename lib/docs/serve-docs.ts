// Serves the public docs: on this app's own host under /docs/{instance}, and on a verified custom domain at
// / (routed by Host). Both adapters hand these requests here; nothing of the rest of the app answers on a docs host.
import fs from "node:fs";
import path from "node:path";
import type { App } from "../app-type";
import { docsConfig } from "../config";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { json } from "../http/core-types";
import { loadDatabase } from "../meta/load-schema";
import { buildOpenApi } from "../openapi/build-openapi";
import { INSTANCE_RE } from "../schema/names";
import { ASSET_PREFIX, DOCS_PAGE_SCRIPT, docsPageHtml, notPublicHtml } from "./docs-page";
import { docsInstanceForHost } from "./docs-hosts";
import { readDocsRow } from "./docs-settings";

// Files read from disk relative to the app's folder: Swagger UI itself, and the dashboard's own theme
// (contrast-checked by the a11y suite), column-filter fold, select naming and the 3.0 restatement Swagger reads
// fastest, so the public page reads and works
// the same.
const SWAGGER_DIST = "node_modules/swagger-ui-dist";
const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
  "swagger-ui.css": { type: CSS, file: `${SWAGGER_DIST}/swagger-ui.css` },
  "swagger-ui-bundle.js": { type: JS, file: `${SWAGGER_DIST}/swagger-ui-bundle.js` },
  "docs-page.js": { type: JS, text: DOCS_PAGE_SCRIPT },
  "tabula-theme.css": { type: CSS, file: "components/docs/swagger-theme.css" },
  "fold-column-filters.js": { type: JS, file: "components/docs/fold-column-filters.js" },
  "name-swagger-selects.js": { type: JS, file: "components/docs/name-swagger-selects.js" },
  "openapi-for-swagger.js": { type: JS, file: "components/docs/openapi-for-swagger.js" },
};

const assetCache = new Map<string, string>();

const serveAsset = (name: string): CoreResponse => {
  const asset = ASSETS[name];
  if (!asset) return notFoundJson("No such docs asset.");
  let body = asset.text ?? assetCache.get(name);
  if (body === undefined) {
    body = fs.readFileSync(path.join(process.cwd(), asset.file!), "utf8");
    assetCache.set(name, body);
  }
  return { status: 200, headers: { "content-type": asset.type, "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }, body };
};

const notFoundJson = (message: string) => json(404, { error: "not_found", message });

const html = (status: number, body: string): CoreResponse => ({
  status,
  headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" },
  body,
});

/** The database behind public docs, or undefined when it does not exist or its docs are not public. */
const publicDatabase = async (app: App, instance: string) => {
  if (!INSTANCE_RE.test(instance)) return undefined;
  await app.sync();
  const database = await loadDatabase(app, instance);
  if (!database) return undefined;
  const row = await readDocsRow(app.engine.meta, database.schema.id);
  return row?.public === 1 ? database : undefined;
};

type Place = { instance: string; rest: string; specUrl: string; apiBase: string };

const serve = async (app: App, req: CoreRequest, place: Place): Promise<CoreResponse> => {
  if (req.method !== "GET" && req.method !== "HEAD") return json(405, { error: "method_not_allowed", message: "The public docs accept GET." }, { allow: "GET, HEAD" });
  const database = await publicDatabase(app, place.instance);
  const schema = database?.schema;
  if (place.rest === "openapi.json") {
    if (!database || !schema) return notFoundJson(`Database "${place.instance}" has no public API docs.`);
    // Built fresh from the cached schema: always the current tables; never a key (curl samples say <API_KEY>).
    return json(200, buildOpenApi(database, { serverUrl: `${place.apiBase}/v1/${schema.instance}` }), { "cache-control": "no-store" });
  }
  if (place.rest !== "") return notFoundJson("No such page of the public docs.");
  if (!schema) return html(404, notPublicHtml());
  return html(200, docsPageHtml({ name: schema.name, instance: schema.instance, specUrl: place.specUrl }));
};

/** `/docs/{instance}`, `/docs/{instance}/openapi.json` and `/docs/_assets/*` on this app's own host. */
export const handleDocsRequest = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  if (req.pathname.startsWith(ASSET_PREFIX)) return serveAsset(req.pathname.slice(ASSET_PREFIX.length));
  const [instance = "", ...rest] = req.pathname.slice("/docs/".length).split("/");
  return serve(app, req, { instance, rest: rest.join("/"), specUrl: `/docs/${instance}/openapi.json`, apiBase: req.origin });
};

/** Every request on a verified custom domain: the docs at `/`, their document and assets, and 404 for the rest. */
export const handleDocsHostRequest = async (app: App, req: CoreRequest, instance: string): Promise<CoreResponse> => {
  if (req.pathname.startsWith(ASSET_PREFIX)) return serveAsset(req.pathname.slice(ASSET_PREFIX.length));
  if (req.pathname !== "/" && req.pathname !== "/openapi.json") return notFoundJson("This domain serves only its database's API docs.");
  // The API itself stays on this app's own address (a custom domain serves nothing but the docs).
  return serve(app, req, { instance, rest: req.pathname.slice(1), specUrl: "/openapi.json", apiBase: docsConfig(app.config).apiUrl });
};

/** What the TLS proxy's on-demand "ask" gets: 200 for a verified domain of public docs, else 404. */
export const handleDomainAllowed = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  await app.sync();
  const domain = req.query.get("domain") ?? "";
  if (domain && (await docsInstanceForHost(app, domain))) return json(200, { domain, allowed: true });
  return notFoundJson(`${domain || "(no domain)"} is not a verified docs domain of this install.`);
};
