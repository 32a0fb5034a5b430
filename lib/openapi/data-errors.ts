// Which error responses a data-API operation documents: only those its code path can answer.
import type { LoadedDatabase } from "../meta/schema-cache";
import type { TableDef } from "../schema/types";
import { authEnabled } from "./auth-paths";
import type { ErrorResponseName } from "./shared-components";

/**
 * The errors each operation can actually answer, from the loaded database: 403 when database auth is on (JWT users
 * meet policies), and on writes when the workspace has members (a viewer's key reads only), 409 everywhere (a
 * request planned on a schema that changed under it: `schema_changed`), also a unique or reference `conflict` on
 * writes with a unique column and on delete when another table references this one, 429 when the owner's plan
 * has a request rate.
 */
export const dataErrors = (database: LoadedDatabase, table?: TableDef) => {
  const { schema } = database;
  const limited = database.requestsPerSecond !== null;
  // The OpenAPI document reads no table, so it never meets a changed schema.
  const document: ErrorResponseName[] = [
    "Unauthorized",
    ...(authEnabled(database) ? ["Forbidden" as const] : []),
    "NotFound",
    ...(limited ? ["PlanRateLimited" as const] : []),
    "InternalError",
    "Unavailable",
  ];
  const read: ErrorResponseName[] = [...document, "SchemaChanged"];
  const unique = table?.columns.some((c) => c.unique) ?? false;
  // A member who is a viewer reads with its key and gets 403 on writes (without auth on, writes alone say so).
  const viewerRefusal: ErrorResponseName[] = database.shared && !authEnabled(database) ? ["Forbidden"] : [];
  const referenced = [...schema.tables.values()].some((t) => t.columns.some((c) => c.references === table?.name));
  /** 500 documents the hook's failure on the actions with steps (it answers for the internal error too). */
  const hooked = (action: "insert" | "update" | "delete") =>
    (table && (database.hooks.get(table.name)?.steps[action].length ?? 0) > 0 ? ["PreHookFailed"] : []) as ErrorResponseName[];
  return {
    document,
    read,
    hooked,
    write: [...read, ...viewerRefusal, ...(unique ? ["Conflict" as const] : []), "PayloadTooLarge", "ValidationFailed"] as ErrorResponseName[],
    remove: [...read, ...viewerRefusal, ...(referenced ? ["Conflict" as const] : [])] as ErrorResponseName[],
  };
};
