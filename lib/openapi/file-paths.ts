// The OpenAPI parts of file columns: the File object, what a JSON body may send for a file column, the
// multipart/form-data bodies of create, replace and update, and the download path with its parameters.
import type { LoadedDatabase } from "../meta/schema-cache";
import { isFile, isSecret } from "../schema/type-traits";
import type { TableDef } from "../schema/types";
import { curlSample } from "./curl-sample";
import { dataErrors } from "./data-errors";
import { errorRefs } from "./shared-components";

export { FILE_SCHEMA } from "./file-schemas";

type Json = Record<string, unknown>;

export const fileColumns = (table: TableDef) => table.columns.filter(isFile);

/** The multipart/form-data body of a write on a table with file columns. */
export const multipartBody = (table: TableDef): Json => {
  const properties: Json = {
    _json: { type: "string", description: "All the non-file columns as one JSON object (instead of one field per column)." },
  };
  for (const c of table.columns) {
    if (isSecret(c)) properties[c.name] = { type: "string", format: "password", writeOnly: true };
    else if (isFile(c)) {
      const file = { type: "string", format: "binary", contentMediaType: "application/octet-stream" };
      properties[c.name] = c.multiple ? { type: "array", items: file, maxItems: 99, description: "One part per file; `" + c.name + "+` parts append, `" + c.name + "-` fields remove a stored name." } : file;
    } else properties[c.name] = { type: "string", description: "The value as text, read with the column's type." };
  }
  return { "multipart/form-data": { schema: { type: "object", properties } } };
};

/** 402 when an upload would pass the owner's storage quota. */
export const QUOTA_RESPONSE = {
  "402": {
    description: "The upload would take the account past its plan's `storage_bytes` (`quota_exceeded`, `quota.kind` = `storage_bytes`).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
};

/** GET /{table}/{id}/{column}/{name}: one stored file of one row, with the row's read rules. */
export const filePath = (database: LoadedDatabase, table: TableDef, serverUrl: string): Record<string, Json> => {
  const columns = fileColumns(table);
  if (!columns.length) return {};
  const { read } = dataErrors(database, table);
  const example = `${serverUrl}/${table.name}/1/{column}/{name}`;
  return {
    [`/${table.name}/{id}/{column}/{name}`]: {
      parameters: [
        { $ref: "#/components/parameters/Id" },
        { name: "column", in: "path", required: true, description: "A file column of the table.", schema: { type: "string", enum: columns.map((c) => c.name) } },
        { name: "name", in: "path", required: true, description: "The file's stored name, as the record's value gives it.", schema: { type: "string" } },
      ],
      get: {
        tags: [table.name],
        operationId: `download${table.name.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())}File`,
        summary: `Download a file of a ${table.name} record`,
        description:
          "The file with the row's read rules: a secret key, a JWT user (a row the select policy hides is 404), or `?token=` a file token from `POST /auth/file-token` (two minutes, for `<img src>`); a `public` column needs nothing. `ETag`, `Range` (206), `Cache-Control`; types a browser would run are always attachments with `X-Content-Type-Options: nosniff`.",
        parameters: [
          { name: "thumb", in: "query", description: "A thumbnail size the column lists (`WxH`, `Wx0`, `0xH`, `WxHf`); any other size is 422.", schema: { type: "string" } },
          { name: "download", in: "query", description: "`1`: `Content-Disposition: attachment`.", schema: { type: "string", enum: ["1"] } },
          { name: "token", in: "query", description: "A file token (`POST /auth/file-token`).", schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "The file's bytes.", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
          "206": { description: "The asked range of the file's bytes.", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
          "304": { description: "Not modified (`If-None-Match` matched the ETag)." },
          "416": { description: "The range is outside the file." },
          ...errorRefs(...read, "ValidationFailed"),
        },
        "x-codeSamples": curlSample("get", example, {}),
      },
    },
  };
};

/** POST /auth/file-token: a JWT user's two-minute download token (databases with auth and file columns). */
export const fileTokenPath = (serverUrl: string): Record<string, Json> => ({
  "/auth/file-token": {
    post: {
      tags: ["Auth"],
      operationId: "createFileToken",
      summary: "A file token for downloads",
      description: "For the signed-in user (their JWT as the bearer token): a token valid for two minutes that a download takes as `?token=`, reading what that user may read in this database.",
      security: [{ userJwt: [] }],
      responses: {
        "200": {
          description: "The token.",
          content: { "application/json": { schema: { type: "object", properties: { token: { type: "string" }, expires_in: { type: "integer", example: 120 } }, required: ["token", "expires_in"] } } },
        },
        ...errorRefs("Unauthorized", "Forbidden"),
      },
      "x-codeSamples": curlSample("post", `${serverUrl}/auth/file-token`, { apiKey: "<JWT>" }),
    },
  },
});
