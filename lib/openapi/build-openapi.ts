// The live OpenAPI 3.1 document of one database's data API, rebuilt from the cached schema on every call.
import { DEFAULT_LIMIT, MAX_BODY_BYTES, MAX_BULK_ROWS, MAX_FILTER_ROWS, MAX_LIMIT, mebibytes } from "../api/limits";
import { FILTER_OPERATORS } from "../schema/filter-operators";
import type { DatabaseSchema, TableDef } from "../schema/types";
import type { LoadedDatabase } from "../meta/schema-cache";
import { authEnabled, authPaths, authSchemas, USER_JWT_SCHEME } from "./auth-paths";
import { signInPaths, signInSchemas, withMfaAnswers } from "./sign-in-paths";
import { curlSample } from "./curl-sample";
import { resolvableJoins } from "../joins/output-columns";
import { joinPaths, joinSchemas } from "./join-paths";
import { changeEventSchema, changesPath } from "./changes-path";
import { LINK_HEADER, LIST_PARAMETERS, listParameters } from "./list-parameters";
import { aggregatePath } from "./aggregate-paths";
import { BY_FILTER_RULES, byFilterParameters, byFilterResponse, upsertOutcomes, upsertParameters, upsertPathParameters } from "./write-paths";
import { recordColumns } from "../schema/types";
import { dataErrors } from "./data-errors";
import { historyPaths, revisionSchema } from "./history-paths";
import { ERROR_SCHEMAS, errorRefs, usedErrorResponses } from "./shared-components";
import { FILE_SCHEMA, fileColumns, filePath, fileTokenPath, multipartBody, QUOTA_RESPONSE } from "./file-paths";
import { exampleCreate, examplePatch, exampleRecord, pascalName, schemaNames, tableSchemas } from "./table-schemas";

type Json = Record<string, unknown>;
export type BuildOpenApiOptions = { serverUrl: string; apiKey?: string };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON `content` entry; `extra` carries `example` or `examples`. */
const json = (schema: Json, extra: Json) => ({ content: { "application/json": { schema, ...extra } } });

const tablePaths = (database: LoadedDatabase, table: TableDef, opts: BuildOpenApiOptions): Record<string, Json> => {
  const { read: READ_ERRORS, write: WRITE_ERRORS, remove: DELETE_ERRORS, hooked } = dataErrors(database, table);
  const names = schemaNames(table.name);
  const p = pascalName(table.name);
  const t = `\`${table.name}\``;
  const collection = `${opts.serverUrl}/${table.name}`;
  const item = `${collection}/1`;
  const record = exampleRecord(table);
  const op = (method: string, url: string, fields: Json, body?: unknown) => ({
    tags: [table.name],
    ...fields,
    "x-codeSamples": curlSample(method, url, { apiKey: opts.apiKey, body }),
  });
  const files = fileColumns(table).length > 0;
  const uploads = files ? multipartBody(table) : {};
  const quota = files ? QUOTA_RESPONSE : {};
  const oneRecord = (description: string) => ({ description, ...json(ref(names.record), { example: record }) });
  const manyCreates = { type: "array", items: ref(names.create), minItems: 1, maxItems: MAX_BULK_ROWS };

  return {
    [`/${table.name}`]: {
      get: op("get", collection, {
        operationId: `list${p}`,
        summary: `List ${table.name}`,
        description: `A page of ${t} records, filtered and sorted by the query parameters. Unknown parameters are a 422.`,
        parameters: listParameters(table),
        responses: {
          "200": {
            description: `The matching records, ordered by \`_sort\` then \`id\` (only the \`_select\` columns, with \`expand\` when \`_expand\` is given).`,
            headers: {
              Link: LINK_HEADER,
              "X-Total-Count": {
                description: "Number of matching records ignoring `_limit`/`_offset`; only with `Prefer: count=exact`.",
                schema: { type: "integer", minimum: 0 },
              },
            },
            ...json({ type: "array", items: ref(names.record) }, { example: [record] }),
          },
          ...errorRefs(...READ_ERRORS, "ValidationFailed"),
        },
      }),
      post: op(
        "post",
        collection,
        {
          operationId: `create${p}`,
          summary: `Create or upsert one ${table.name} record`,
          description: `Creates one record. With \`_on_conflict\` and \`Prefer: resolution=merge-duplicates\` it upserts: a record whose conflict value exists is merged (200), otherwise it is created (201). Several records at once: \`POST /${table.name}/_bulk\` and \`POST /${table.name}/_upsert\` (this path takes an array too, answering an array).`,
          parameters: upsertParameters(table),
          requestBody: { required: true, content: { "application/json": { schema: ref(names.create), example: exampleCreate(table) }, ...uploads } },
          responses: {
            "201": oneRecord("The created record."),
            "200": oneRecord("Upsert only: the record merged into the existing one."),
            ...errorRefs(...WRITE_ERRORS, ...hooked("insert")),
            ...quota,
          },
        },
        exampleCreate(table),
      ),
      patch: op(
        "patch",
        `${collection}?id_in=1,2`,
        {
          operationId: `update${p}ByFilter`,
          summary: `Update the ${table.name} records a filter matches`,
          description: `Sets the body's columns on every matching record. ${BY_FILTER_RULES}`,
          parameters: byFilterParameters(table),
          requestBody: { required: true, ...json(ref(names.patch), { example: examplePatch(table) }) },
          responses: { "200": byFilterResponse(names.record, "`{\"affected\": n}`, or the updated records with `Prefer: return=representation`."), ...errorRefs(...WRITE_ERRORS, ...hooked("update")) },
        },
        examplePatch(table),
      ),
      delete: op("delete", `${collection}?id_in=1,2`, {
        operationId: `delete${p}ByFilter`,
        summary: `Delete the ${table.name} records a filter matches`,
        description: `Removes every matching record. ${BY_FILTER_RULES}`,
        parameters: byFilterParameters(table),
        responses: { "200": byFilterResponse(names.record, "`{\"affected\": n}`, or the deleted records with `Prefer: return=representation`."), ...errorRefs(...DELETE_ERRORS, "ValidationFailed", ...hooked("delete")) },
      }),
    },
    ...aggregatePath(table.name, recordColumns(table), { ...opts, operationId: `aggregate${p}`, tag: table.name, errors: READ_ERRORS }),
    [`/${table.name}/_bulk`]: {
      post: op(
        "post",
        `${collection}/_bulk`,
        {
          operationId: `createMany${p}`,
          summary: `Create several ${table.name} records`,
          description: `Creates up to ${MAX_BULK_ROWS} records from a JSON array in one transaction: all or nothing. A 422 names each refused value by its position (\`[2].title\`).`,
          requestBody: { required: true, ...json(manyCreates, { example: [exampleCreate(table)] }) },
          responses: {
            "201": { description: "The created records, in body order.", ...json({ type: "array", items: ref(names.record) }, { example: [record] }) },
            ...errorRefs(...WRITE_ERRORS, ...hooked("insert")),
          },
        },
        [exampleCreate(table)],
      ),
    },
    [`/${table.name}/_upsert`]: {
      post: op(
        "post",
        `${collection}/_upsert?_on_conflict=id`,
        {
          operationId: `upsert${p}`,
          summary: `Create or merge several ${table.name} records`,
          description: `Up to ${MAX_BULK_ROWS} records in one transaction, in body order: each whose \`_on_conflict\` value exists is merged (only its given columns change), the others are created. 201 when any was created, 200 when all were merged.`,
          parameters: upsertPathParameters(table),
          requestBody: { required: true, ...json(manyCreates, { example: [exampleCreate(table)] }) },
          responses: {
            "201": { description: "One `{status, record}` per body record, in body order.", ...json(upsertOutcomes(names.record), { example: [{ status: 201, record }] }) },
            "200": { description: "Every record was merged: one `{status, record}` per body record.", ...json(upsertOutcomes(names.record), { example: [{ status: 200, record }] }) },
            ...errorRefs(...WRITE_ERRORS, ...hooked("insert"), ...hooked("update")),
          },
        },
        [exampleCreate(table)],
      ),
    },
    [`/${table.name}/{id}`]: {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      get: op("get", item, {
        operationId: `get${p}ById`,
        summary: `Get one ${table.name} record`,
        description: `The ${t} record with this id.`,
        responses: { "200": oneRecord("The record."), ...errorRefs(...READ_ERRORS) },
      }),
      put: op(
        "put",
        item,
        {
          operationId: `replace${p}`,
          summary: `Replace one ${table.name} record`,
          description: "Replaces the whole record: omitted nullable columns become NULL. Prefer PATCH for partial changes.",
          requestBody: { required: true, content: { ...json(ref(names.replace), { example: exampleCreate(table) }).content, ...uploads } },
          responses: { "200": oneRecord("The updated record."), ...errorRefs(...WRITE_ERRORS, ...hooked("update")), ...quota },
        },
        exampleCreate(table),
      ),
      patch: op(
        "patch",
        item,
        {
          operationId: `update${p}`,
          summary: `Update one ${table.name} record`,
          description: "Changes only the columns in the body; the others stay unchanged.",
          requestBody: { required: true, content: { ...json(ref(names.patch), { example: examplePatch(table) }).content, ...uploads } },
          responses: { "200": oneRecord("The updated record."), ...errorRefs(...WRITE_ERRORS, ...hooked("update")), ...quota },
        },
        examplePatch(table),
      ),
      delete: op("delete", item, {
        operationId: `delete${p}`,
        summary: `Delete one ${table.name} record`,
        description: "Removes the record for good. A record other rows still reference is a 409.",
        responses: { "204": { description: "Deleted." }, ...errorRefs(...DELETE_ERRORS, ...hooked("delete")) },
      }),
    },
    ...filePath(database, table, opts.serverUrl),
    ...historyPaths(table, {
      serverUrl: opts.serverUrl,
      apiKey: opts.apiKey,
      recordSchema: names.record,
      record,
      read: READ_ERRORS,
      write: [...WRITE_ERRORS, ...hooked("insert"), ...hooked("update")],
    }),
  };
};

const documentPath = (database: LoadedDatabase, opts: BuildOpenApiOptions): Json => ({
  get: {
    tags: ["OpenAPI"],
    operationId: "getOpenApi",
    summary: "This OpenAPI document",
    description: "The live OpenAPI 3.1 document of this database, rebuilt from its schema on every request.",
    responses: {
      "200": { description: "An OpenAPI 3.1 document.", ...json({ type: "object" }, { example: { openapi: "3.1.0" } }) },
      ...errorRefs(...dataErrors(database).document),
    },
    "x-codeSamples": curlSample("get", `${opts.serverUrl}/openapi.json`, { apiKey: opts.apiKey }),
  },
});

// `{column}`, `{column}_ne`, `_gt`, …: every operator of the grammar's one table.
const FILTER_SUMMARY = FILTER_OPERATORS.map((o, i) => (i < 2 ? `\`{column}${o.suffix}\`` : `\`${o.suffix}\``)).join(", ");

const describeApi = (schema: DatabaseSchema) => `The REST API of the **${schema.name}** database (\`${schema.instance}\`), generated from its live schema.

**Authentication**: \`Authorization: Bearer <key>\` with your secret key (\`sk_...\`) or a database-auth JWT, or \`x-api-key: <key>\`.

**Lists**: \`_limit\` (1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}), \`_offset\`, \`_sort=-price,name\`, and filters ${FILTER_SUMMARY} (\`_in\` takes comma-separated values, \`_null\` \`true\`/\`false\`). Password columns cannot be filtered or sorted. An unknown parameter is a 422, never ignored. \`Prefer: count=exact\` adds \`X-Total-Count\`. \`_select=a,b\` picks columns, \`_expand=ref_col\` adds the referenced rows under \`expand\`; a \`Link: <…>; rel="next"\` header carries the next page's \`_after\` cursor. \`GET /{table}/_aggregate\` (and \`/{join}/_aggregate\`) groups and counts with \`_group\` and \`_agg\`.

**Record history** (tables that keep it): \`GET /{table}/{id}/_history\` lists a record's revisions, \`POST /{table}/{id}/_restore {"rev"}\` writes one back as a new revision, \`GET /{table}/_deleted\` lists recently deleted records.

**Writes beyond one record**: \`POST /{table}/_bulk\` takes an array (up to ${MAX_BULK_ROWS}, all or nothing) and answers the array of records; \`POST /{table}/_upsert?_on_conflict=<unique column>\` merges or creates each and answers \`[{status, record}]\`. \`POST /{table}\` with \`_on_conflict\` and \`Prefer: resolution=merge-duplicates\` upserts one record (it takes arrays too). \`PATCH /{table}?<filters>\` and \`DELETE /{table}?<filters>\` change every matching record in one transaction (a filter is required, at most ${MAX_FILTER_ROWS.toLocaleString("en-US")} records) and answer \`{"affected": n}\`.

**Errors** share one body, \`{"error", "message", "errors"?}\`: 401 bad credentials (\`WWW-Authenticate: Bearer\`), 403 not allowed, 404 unknown table or id, 405 a verb the path does not accept (with \`Allow\`), 409 unique or reference conflict (or, with \`retryable: true\`, \`schema_changed\`: the table changed while the request ran, or \`write_conflict\`: a write lost a race to another and the server's retries ran out; send it again), 413 body over ${mebibytes(MAX_BODY_BYTES)}, 422 validation (\`errors\` lists every problem; a reference to a missing row names its column), 500 an internal error (never with details), 503 the database is unreachable or busy (retry after \`Retry-After\`). Each operation lists the ones it can answer.`;

export const buildOpenApi = (database: LoadedDatabase, opts: BuildOpenApiOptions): Record<string, unknown> => {
  const { schema } = database;
  const auth = authEnabled(database);
  const tables = [...schema.tables.values()];
  const joins = resolvableJoins(schema);
  const paths: Record<string, Json> = Object.assign({}, ...tables.map((t) => tablePaths(database, t, opts)), ...joins.map((j) => joinPaths(database, j, opts)), {
    "/openapi.json": documentPath(database, opts),
  }, tables.length ? changesPath(schema, opts.serverUrl) : {}, auth ? withMfaAnswers(database, { ...authPaths(database, opts.serverUrl), ...signInPaths(database, opts.serverUrl) }) : {},
  auth && tables.some((t) => fileColumns(t).length) ? fileTokenPath(opts.serverUrl) : {});
  return {
    openapi: "3.1.0",
    info: { title: schema.name, version: "v1", description: describeApi(schema) },
    servers: [{ url: opts.serverUrl, description: `Database \`${schema.instance}\`` }],
    security: [{ bearerAuth: [] }, { apiKey: [] }],
    tags: [
      ...tables.map((t) => ({ name: t.name, description: `Records of the \`${t.name}\` table.` })),
      ...joins.map((j) => ({ name: j.name, description: `Records of the \`${j.name}\` join (read-only).` })),
      ...(auth ? [{ name: "Auth", description: "Database auth: log users in and get a JWT." }] : []),
      ...(tables.length ? [{ name: "Changes", description: "The change feed: committed inserts, updates and deletes as Server-Sent Events." }] : []),
      { name: "OpenAPI", description: "The description of this API." },
    ],
    paths,
    components: {
      schemas: { ...ERROR_SCHEMAS, ...(tables.some((t) => fileColumns(t).length) ? { File: FILE_SCHEMA } : {}), ...Object.assign({}, ...tables.map((t) => tableSchemas(t, (name) => schema.tables.get(name))), ...joins.map((j) => joinSchemas(schema, j))), ...(auth ? authSchemas(database) : {}), ...(auth ? signInSchemas(database) : {}), ...(tables.length ? changeEventSchema(schema) : {}), ...(tables.some((t) => t.history !== false) ? revisionSchema() : {}) },
      parameters: {
        ...LIST_PARAMETERS,
        Id: {
          name: "id",
          in: "path",
          required: true,
          description: "The record's id.",
          example: 1,
          schema: { type: "integer", format: "int64", minimum: 1 },
        },
      },
      responses: usedErrorResponses(paths),
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Your secret key `sk_...` or a database-auth JWT." },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "Your secret key `sk_...`." },
        ...(auth ? { userJwt: USER_JWT_SCHEME } : {}),
      },
    },
  };
};
