// The public docs page: plain HTML around Swagger UI (swagger-ui-dist, served by this app, never a CDN), branded
// with the database's name. It holds no key: try-it asks for one through Authorize.

export const ASSET_PREFIX = "/docs/_assets/";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's script, a module: reads its settings from the JSON block, so the page needs no inline script, and
 * imports the dashboard's own column-filter fold and select naming (served beside it from components/docs/*.js).
 */
export const DOCS_PAGE_SCRIPT = `import { foldColumnFilters } from "./fold-column-filters.js";
import { nameSwaggerSelects } from "./name-swagger-selects.js";
import { openApiForSwagger } from "./openapi-for-swagger.js";
(async () => {
  // The dashboard's explicit theme choice (same origin) wins over the system's, as in the dashboard.
  try {
    const theme = localStorage.getItem("tabula-theme");
    if (theme === "dark" || theme === "light") document.documentElement.classList.add(theme);
  } catch (e) {}
  const settings = JSON.parse(document.getElementById("tabula-docs").textContent);
  const options = {
    dom_id: "#swagger-ui",
    deepLinking: false,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    persistAuthorization: false,
    plugins: [foldColumnFilters],
  };
  nameSwaggerSelects(document.getElementById("swagger-ui"));
  // The document is read here and handed over restated as OpenAPI 3.0, which Swagger UI reads several times
  // faster than 3.1 (openapi-for-swagger.js); should that fail, Swagger UI reads it by URL as before.
  try {
    const response = await fetch(settings.specUrl, { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    window.ui = SwaggerUIBundle({ ...options, spec: openApiForSwagger(await response.json()) });
  } catch (e) {
    window.ui = SwaggerUIBundle({ ...options, url: settings.specUrl });
  }
})();
`;

export const docsPageHtml = ({ name, instance, specUrl }: { name: string; instance: string; specUrl: string }) => {
  const settings = JSON.stringify({ specUrl }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(name)} API docs</title>
<link rel="stylesheet" href="${ASSET_PREFIX}swagger-ui.css">
<link rel="stylesheet" href="${ASSET_PREFIX}tabula-theme.css">
<style>
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f8fafc; }
  .tabula-docs-header { background: #1e1b4b; color: #fff; padding: 18px 24px; }
  .tabula-docs-header h1 { margin: 0; font-size: 22px; }
  .tabula-docs-header p { margin: 6px 0 0; font-size: 13px; color: #c7d2fe; }
  .tabula-docs-header code { color: #fff; }
  .tabula-swagger { display: block; max-width: 1200px; margin: 0 auto; border-radius: 0; }
  /* Dark theme (the system's, or the dashboard's choice): the page around Swagger turns dark; Swagger stays the
     light, contrast-checked card it is in the dashboard's API Docs tab. */
  html.dark body { background: #0a1020; }
  html.dark .tabula-docs-header { background: #111a2e; }
  @media (prefers-color-scheme: dark) {
    html:not(.light) body { background: #0a1020; }
    html:not(.light) .tabula-docs-header { background: #111a2e; }
  }
</style>
</head>
<body>
<header class="tabula-docs-header">
  <h1 data-testid="docs-title">${escapeHtml(name)} API</h1>
  <p>Database <code>${escapeHtml(instance)}</code>. To try a request, click Authorize and enter your secret key (<code>sk_…</code>); this page never holds one.</p>
</header>
<main class="tabula-swagger"><div id="swagger-ui"></div></main>
<script id="tabula-docs" type="application/json">${settings}</script>
<script src="${ASSET_PREFIX}swagger-ui-bundle.js"></script>
<script type="module" src="${ASSET_PREFIX}docs-page.js"></script>
</body>
</html>
`;
};

export const notPublicHtml = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body style="font-family: system-ui, sans-serif; padding: 40px"><h1>Not found</h1><p>There are no public API docs here.</p></body></html>
`;
