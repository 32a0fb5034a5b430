// The OpenAPI 3.1 document of the management API under /api/v1 (databases, tables, columns, keys).
import { ACCOUNT_MANAGEMENT_SCHEMAS, accountManagementPaths } from "./account-management-paths";
import { AUTH_MANAGEMENT_SCHEMAS, authManagementPaths } from "./auth-management-paths";
import { curlSample } from "./curl-sample";
import { JOIN_MANAGEMENT_SCHEMAS, joinManagementPaths } from "./join-management-paths";
import { MANAGEMENT_EXAMPLES, MANAGEMENT_SCHEMAS } from "./management-schemas";
import { type ErrorResponseName, ERROR_SCHEMAS, errorRefs, usedErrorResponses } from "./shared-components";

type Json = Record<string, unknown>;

type OpSpec = {
  tag: string;
  operationId: string;
  summary: string;
  description: string;
  status: "200" | "201" | "204";
  /** Schema of the success body; none for 204. */
  result?: Json;
  body?: { schema: string; example: unknown };
  query?: Json[];
  errors: ErrorResponseName[];
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string) => ({ type: "array", items: ref(name) });

const SAMPLE_VALUES: Record<string, string> = { instance: "shop_7k2m9x", table: "products", column: "price", id: "7", join: "books_with_authors" };

const operation = (serverUrl: string, method: string, path: string, spec: OpSpec): Json => {
  const { tag, status, result, body, query, errors, ...named } = spec;
  const url = serverUrl + path.replace(/\{(\w+)\}/g, (_m, p: string) => SAMPLE_VALUES[p]);
  const success = result
    ? { description: named.summary, content: { "application/json": { schema: result } } }
    : { description: "Done; no content." };
  return {
    tags: [tag],
    ...named,
    ...(query ? { parameters: query } : {}),
    ...(body
      ? { requestBody: { required: true, content: { "application/json": { schema: ref(body.schema), example: body.example } } } }
      : {}),
    responses: { [status]: success, ...errorRefs("Unauthorized", ...errors) },
    "x-codeSamples": curlSample(method, url, { body: body?.example }),
  };
};

const pathParam = (name: string, description: string, schema: Json) => ({ name, in: "path", required: true, description, schema });

const PARAMETERS = {
  Instance: pathParam("instance", "The database's instance, e.g. `shop_7k2m9x`.", { type: "string" }),
  Table: pathParam("table", "The table's name.", { type: "string" }),
  Column: pathParam("column", "The column's name.", { type: "string" }),
  KeyId: pathParam("id", "The key's id.", { type: "integer" }),
};
const params = (...names: (keyof typeof PARAMETERS)[]) => names.map((n) => ({ $ref: `#/components/parameters/${n}` }));

const LIST_QUERY = [
  {
    name: "scope",
    in: "query",
    required: false,
    description: "`mine`: databases you created; `shared`: databases shared with you.",
    schema: { type: "string", enum: ["mine", "shared"], default: "mine" },
  },
  { name: "creator", in: "query", required: false, description: "Only databases created by this account id.", schema: { type: "integer" } },
];

const SCOPED: ErrorResponseName[] = ["Forbidden", "NotFound"];
const CHANGE: ErrorResponseName[] = [...SCOPED, "Conflict", "ValidationFailed"];

const managementPaths = (url: string): Record<string, Json> => {
  const op = (method: string, path: string, spec: OpSpec) => operation(url, method, path, spec);
  const db = "/databases/{instance}";
  const table = `${db}/tables/{table}`;
  const column = `${table}/columns/{column}`;
  const ex = MANAGEMENT_EXAMPLES;
  return {
    "/databases": {
      post: op("post", "/databases", {
        tag: "Databases", operationId: "createDatabase", summary: "Create a database",
        description: "Creates a database; with `tables` it is a quick create (all tables at once, all or nothing).",
        status: "201", result: ref("Database"), body: { schema: "DatabaseCreate", example: ex.database },
        errors: ["QuotaExceeded", "Forbidden", "ValidationFailed"],
      }),
      get: op("get", "/databases", {
        tag: "Databases", operationId: "listDatabases", summary: "List databases",
        description: "The databases this account can reach.", status: "200", result: list("DatabaseSummary"),
        query: LIST_QUERY, errors: ["ValidationFailed"],
      }),
    },
    [db]: {
      parameters: params("Instance"),
      get: op("get", db, {
        tag: "Databases", operationId: "getDatabase", summary: "Get a database",
        description: "The database with its tables and columns.", status: "200", result: ref("Database"), errors: SCOPED,
      }),
      patch: op("patch", db, {
        tag: "Databases", operationId: "updateDatabase", summary: "Rename a database",
        description: "Changes the display name; the instance never changes.", status: "200", result: ref("Database"),
        body: { schema: "DatabasePatch", example: { name: "My shop" } }, errors: [...SCOPED, "ValidationFailed"],
      }),
      delete: op("delete", db, {
        tag: "Databases", operationId: "deleteDatabase", summary: "Delete a database",
        description: "Deletes the database and all its data; its instance is never reused.", status: "204", errors: SCOPED,
      }),
    },
    [`${db}/tables`]: {
      parameters: params("Instance"),
      post: op("post", `${db}/tables`, {
        tag: "Tables", operationId: "createTable", summary: "Create a table",
        description: "Creates a table; its data API paths and docs exist at once.", status: "201", result: ref("Table"),
        body: { schema: "TableInput", example: ex.table }, errors: CHANGE,
      }),
      get: op("get", `${db}/tables`, {
        tag: "Tables", operationId: "listTables", summary: "List tables",
        description: "The tables of the database.", status: "200", result: list("Table"), errors: SCOPED,
      }),
    },
    [table]: {
      parameters: params("Instance", "Table"),
      get: op("get", table, {
        tag: "Tables", operationId: "getTable", summary: "Get a table",
        description: "The table with its columns.", status: "200", result: ref("Table"), errors: SCOPED,
      }),
      patch: op("patch", table, {
        tag: "Tables", operationId: "renameTable", summary: "Rename a table",
        description: "Renames the table; its data API path follows.", status: "200", result: ref("Table"),
        body: { schema: "TableRename", example: { name: "items" } }, errors: CHANGE,
      }),
      delete: op("delete", table, {
        tag: "Tables", operationId: "deleteTable", summary: "Delete a table",
        description: "Drops the table and its rows; 409 while another table or a join uses it.", status: "204",
        errors: [...SCOPED, "Conflict"],
      }),
    },
    [`${table}/columns`]: {
      parameters: params("Instance", "Table"),
      post: op("post", `${table}/columns`, {
        tag: "Columns", operationId: "addColumn", summary: "Add a column",
        description: "Adds one column; the data API and its docs show it at once.", status: "201", result: ref("Column"),
        body: { schema: "ColumnInput", example: ex.column }, errors: CHANGE,
      }),
    },
    [column]: {
      parameters: params("Instance", "Table", "Column"),
      patch: op("patch", column, {
        tag: "Columns", operationId: "updateColumn", summary: "Change a column",
        description: "Renames or changes the column, keeping data where the conversion is lossless (otherwise 422).",
        status: "200", result: ref("Column"), body: { schema: "ColumnPatch", example: { name: "unit_price" } }, errors: CHANGE,
      }),
      delete: op("delete", column, {
        tag: "Columns", operationId: "deleteColumn", summary: "Delete a column",
        description: "Drops the column and its values; 409 while a join uses it.", status: "204", errors: [...SCOPED, "Conflict"],
      }),
    },
    "/keys": {
      get: op("get", "/keys", {
        tag: "Keys", operationId: "listKeys", summary: "List secret keys",
        description: "The account's active secret keys.", status: "200", result: list("Key"), errors: ["Forbidden"],
      }),
      post: op("post", "/keys", {
        tag: "Keys", operationId: "createKey", summary: "Create a secret key",
        description: "A key for one database, or account-wide without `database`.", status: "201", result: ref("Key"),
        body: { schema: "KeyCreate", example: ex.key }, errors: [...SCOPED, "ValidationFailed"],
      }),
    },
    "/keys/{id}/regenerate": {
      parameters: params("KeyId"),
      post: op("post", "/keys/{id}/regenerate", {
        tag: "Keys", operationId: "regenerateKey", summary: "Regenerate a secret key",
        description: "Replaces the key's secret; the old one stops working at once.", status: "200", result: ref("Key"),
        errors: SCOPED,
      }),
    },
    "/keys/{id}": {
      parameters: params("KeyId"),
      delete: op("delete", "/keys/{id}", {
        tag: "Keys", operationId: "revokeKey", summary: "Revoke a secret key",
        description: "The key stops working at once.", status: "204", errors: SCOPED,
      }),
    },
  };
};

// The handler serves this document without credentials, so it says so.
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

const DESCRIPTION = `Manage databases, tables, columns and secret keys. Every change is live: the data API under \`/v1/{instance}\` and its OpenAPI document follow at once.

**Authentication**: \`Authorization: Bearer <account secret key>\` (or \`x-api-key\`), or the dashboard session.

**Errors** share one body, \`{"error", "message", "errors"?}\`, and the data API's status codes: 401, 402, 403, 404, 409, 422 (\`errors\` lists every problem).`;

const TAGS = {
  Databases: "Databases: each one its own MySQL schema or SQLite file, with its own data API.",
  Tables: "Tables of a database; each is a path of the data API.",
  Columns: "Columns of a table (id, created_at and updated_at are automatic).",
  Keys: "Secret keys for the data and management APIs.",
  Joins: "Joins: several tables merged into one read-only data API path.",
  Auth: "Database auth (users log in and get a JWT) and Row Level Security policies.",
  Accounts: "Accounts of this install and who may sign up.",
  OpenAPI: "The description of this API.",
};

export const buildManagementOpenApi = (serverUrl: string): Record<string, unknown> => {
  const authOp = (method: string, path: string, spec: OpSpec) => operation(serverUrl, method, path, spec);
  const paths = { ...managementPaths(serverUrl), ...authManagementPaths(authOp), ...joinManagementPaths(authOp), ...accountManagementPaths(authOp), "/openapi.json": documentPath(serverUrl) };
  return {
    openapi: "3.1.0",
    info: { title: "Tabula management API", version: "v1", description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }, { apiKey: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { ...ERROR_SCHEMAS, ...MANAGEMENT_SCHEMAS, ...AUTH_MANAGEMENT_SCHEMAS, ...JOIN_MANAGEMENT_SCHEMAS, ...ACCOUNT_MANAGEMENT_SCHEMAS },
      parameters: PARAMETERS,
      responses: usedErrorResponses(paths),
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Your account secret key `sk_...`." },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "Your account secret key `sk_...`." },
      },
    },
  };
};
