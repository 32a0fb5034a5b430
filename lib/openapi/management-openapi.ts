// The OpenAPI 3.1 document of the management API under /api/v1, generated from the route table
// (lib/mgmt/routes.ts) and its zod schemas: nothing here describes an endpoint by hand.
import { z } from "zod";
import { ROUTES } from "../mgmt/routes";
import { TAGS } from "../mgmt/route";
import { COMPONENTS } from "../contract/schemas/common";
import { errorComponents } from "./management-errors";
import { managementOperation, openApiPath, PARAMETER_COMPONENTS, pathParameterRefs } from "./management-operation";
import { ERROR_SCHEMAS } from "./shared-components";

type Json = Record<string, unknown>;

const DESCRIPTION = `Manage databases, tables, columns, joins, database auth and secret keys. Every change is live: the data API under \`/v1/{instance}\` and its OpenAPI document follow at once.

**Authentication**: \`Authorization: Bearer <secret key>\` (or \`x-api-key\`), or the dashboard session. An account-wide key acts as its account; a database key reaches its own database only (403 on other routes).

**Errors** share one body, \`{"error", "message", "errors"?}\`, and the data API's status codes; each operation lists the ones it can answer.`;

// A tuple's `items: false` reads to linters as an array without items: name the element schema instead.
const closeTuples = ({ jsonSchema }: { jsonSchema: Json }) => {
  const prefix = jsonSchema.prefixItems as Json[] | undefined;
  if (jsonSchema.items !== false || !prefix?.length) return;
  const same = prefix.every((p) => JSON.stringify(p) === JSON.stringify(prefix[0]));
  jsonSchema.items = same ? prefix[0] : { anyOf: prefix };
};

// The registry converts once: $refs between components, and no per-schema $schema/$id (OpenAPI supplies them).
let schemas: Record<string, Json> | undefined;
const componentSchemas = () => {
  if (schemas) return schemas;
  const out = z.toJSONSchema(COMPONENTS, { target: "draft-2020-12", io: "input", uri: (id) => `#/components/schemas/${id}`, override: closeTuples });
  schemas = Object.fromEntries(
    Object.entries(out.schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema as Json]),
  );
  return schemas;
};

const documentPath = (url: string): Json => ({
  get: {
    tags: ["OpenAPI"],
    operationId: "getOpenApi",
    summary: "This OpenAPI document",
    description: "The OpenAPI 3.1 document of the management API; no credentials needed.",
    security: [],
    responses: { "200": { description: "An OpenAPI 3.1 document.", content: { "application/json": { schema: { type: "object" } } } } },
    "x-codeSamples": [{ lang: "curl", label: "cURL", source: `curl '${url}/openapi.json'` }],
  },
});

const buildPaths = (serverUrl: string) => {
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    const item = (paths[openApiPath(route)] ??= {});
    const parameters = pathParameterRefs(route);
    if (parameters.length) item.parameters = parameters;
    item[route.method.toLowerCase()] = managementOperation(route, serverUrl);
  }
  paths["/openapi.json"] = documentPath(serverUrl);
  return paths;
};

export const buildManagementOpenApi = (serverUrl: string): Record<string, unknown> => ({
  openapi: "3.1.0",
  info: { title: "Tabula management API", version: "v1", description: DESCRIPTION },
  servers: [{ url: serverUrl }],
  security: [{ bearerAuth: [] }, { apiKey: [] }],
  tags: [...Object.entries(TAGS), ["OpenAPI", "The description of this API."]].map(([name, description]) => ({ name, description })),
  paths: buildPaths(serverUrl),
  components: {
    schemas: { ...ERROR_SCHEMAS, ...componentSchemas() },
    parameters: PARAMETER_COMPONENTS,
    responses: errorComponents(ROUTES),
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "A secret key `sk_...` (account-wide, or limited to one database)." },
      apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "A secret key `sk_...` (account-wide, or limited to one database)." },
    },
  },
});
