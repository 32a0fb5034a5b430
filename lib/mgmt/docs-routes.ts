import { getDocsSettings } from "../services/docs/get-docs-settings";
import { updateDocsSettings } from "../services/docs/update-docs-settings";
import { verifyDocsDomain } from "../services/docs/verify-docs-domain";
import { defineRoute } from "./route";
import { DocsSettings, DocsSettingsInput } from "../contract/schemas/docs";

const DOCS = "databases/:instance/docs";

// Reading is for every role; publishing the docs and claiming a domain expose the database's API to the world
// and point DNS at it, so they are the database's admin decisions (like deleting it).
export const DOCS_ROUTES = [
  defineRoute({
    method: "GET", path: DOCS, permission: "database:read", tag: "Docs", operationId: "getDocsSettings",
    summary: "Get the public docs settings", description: "Whether the API docs are public, their URL, and the custom domain with its DNS records and status.",
    status: 200, response: DocsSettings,
    run: (ctx, { instance }) => getDocsSettings(ctx, { instance }),
  }),
  defineRoute({
    method: "PUT", path: DOCS, permission: "database:admin", tag: "Docs", operationId: "updateDocsSettings",
    summary: "Publish the docs, set the custom domain", description: "Switches the public docs at /docs/{instance} and sets the custom domain (a lowercase hostname, 422 naming `domain`). A domain needs a plan with custom domains (402) and belongs to one database only (409). A new domain is pending until verified.",
    body: DocsSettingsInput, status: 200, response: DocsSettings, quota: "custom_domain", errors: ["conflict"],
    run: (ctx, { instance, body }) => updateDocsSettings(ctx, { instance, body }),
  }),
  defineRoute({
    method: "POST", path: `${DOCS}/verify`, permission: "database:admin", tag: "Docs", operationId: "verifyDocsDomain",
    summary: "Verify the custom domain", description: "Looks up the domain's CNAME (must be `cname_target`) and the TXT record (`txt`) with real DNS queries now. verified when both are right; otherwise pending (never verified yet) or failing (it was), with `domain_error` saying why. Without a domain it answers the settings unchanged.",
    status: 200, response: DocsSettings,
    run: (ctx, { instance }) => verifyDocsDomain(ctx, { instance }),
  }),
];
