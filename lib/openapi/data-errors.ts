// Which error responses a data-API operation documents: only those its code path can answer.
import type { DatabaseSchema, TableDef } from "../schema/types";
import { authEnabled } from "./auth-paths";
import type { ErrorResponseName } from "./shared-components";

/**
 * The errors each operation can actually answer, from the schema: 403 only when database auth is on (JWT
 * users meet policies; a key is the server role), 409 on writes only with a unique column, on delete only
 * when another table references this one, 429 when the owner's plan has a request rate.
 */
export const dataErrors = (schema: DatabaseSchema, table?: TableDef) => {
  const limited = schema.requestsPerSecond !== null && schema.requestsPerSecond !== undefined;
  const read: ErrorResponseName[] = [
    "Unauthorized",
    ...(authEnabled(schema) ? ["Forbidden" as const] : []),
    "NotFound",
    ...(limited ? ["PlanRateLimited" as const] : []),
    "InternalError",
  ];
  const unique = table?.columns.some((c) => c.unique) ?? false;
  const referenced = [...schema.tables.values()].some((t) => t.columns.some((c) => c.references === table?.name));
  return {
    read,
    write: [...read, ...(unique ? ["Conflict" as const] : []), "PayloadTooLarge", "ValidationFailed"] as ErrorResponseName[],
    remove: [...read, ...(referenced ? ["Conflict" as const] : [])] as ErrorResponseName[],
  };
};
