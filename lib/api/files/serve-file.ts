// GET /v1/{db}/{table}/{id}/{column}/{name}: one stored file of one row, with the row's read rules. A `public`
// column needs nothing; otherwise a secret key, a JWT user (the select policy: a hidden row is 404), or a
// `?token=` file token standing for its user. The file must be one the row's value names now. `?thumb=` takes
// only the sizes the column lists (422 otherwise); the answer itself (Range, ETag, nosniff) is lib/files/serve.ts.
import type { App } from "../../app-type";
import { methodNotAllowed, notFound } from "../../errors";
import type { CoreRequest, CoreResponse } from "../../http/core-types";
import { pathId } from "../../http/path-id";
import { STORED_NAME } from "../../files/safe-name";
import { serveFile } from "../../files/serve";
import type { LoadedDatabase } from "../../meta/schema-cache";
import { FULL_ACCESS, predicatesFor } from "../../rls/access";
import { rowFilter } from "../../rls/row-filter";
import { filesOf } from "../../schema/file-value";
import { isFile } from "../../schema/type-traits";
import type { Caller } from "../authenticate";
import { findRecordOrThrow } from "../read-records";
import { indexTable, indexTableForUsers } from "../table-index";
import { fileKey, fileScopeOf } from "./file-scope";
import { fileTokenCaller } from "./file-token";

export type FilePath = { table: string; id: string; column: string; name: string };

export const serveFileRequest = async (
  app: App,
  req: CoreRequest,
  database: LoadedDatabase,
  path: FilePath,
  /** The request's own credential, read only when the column is not public and no token came. */
  authenticate: () => Promise<Caller>,
  /** Counts the request against the owner's rate (429 past it), once the caller is settled. */
  admit: () => Promise<void>,
): Promise<CoreResponse> => {
  if (req.method !== "GET" && req.method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"]);
  const { schema } = database;
  const missing = notFound("No such file.");
  const table = schema.tables.get(path.table);
  const column = table?.columns.find((c) => c.name === path.column);
  if (!table || !column || !isFile(column) || !STORED_NAME.test(path.name)) throw missing;
  const id = pathId(path.id, "No such file.");
  const token = req.query.get("token");
  const caller: Caller | undefined = column.public ? undefined : token ? await fileTokenCaller(database, token) : await authenticate();
  await admit();
  const user = caller?.kind === "user" ? caller : undefined;
  const access = user ? (t: string, action: "select" | "insert" | "update" | "delete") => rowFilter(user, schema, t, action) : FULL_ACCESS;
  const index = user ? indexTableForUsers(table) : indexTable(table);
  const record = await findRecordOrThrow(app.engine.userDb(schema.physical), index, id, predicatesFor(access, table.name, "select")).catch((err) => {
    throw err?.status === 404 ? missing : err;
  });
  const file = filesOf(record[column.name]).find((f) => f.name === path.name);
  if (!file) throw missing;
  const scope = fileScopeOf(app, database, table)!;
  return serveFile({
    store: scope.store,
    key: fileKey(scope, file.name),
    file,
    method: req.method,
    header: req.header,
    query: req.query,
    public: column.public === true,
    thumbs: column.thumbs ?? [],
  });
};
