import type { RawBuilder } from "kysely";
import type { Caller } from "../api/authenticate";
import type { DatabaseSchema } from "../schema/types";

export type PolicyAction = "select" | "insert" | "update" | "delete";

/**
 * The row predicate a caller is held to for one action on one table: undefined = every row (secret keys,
 * the server role); "deny" = the action is closed to this caller (no policy). `qualifier` prefixes column
 * references with a table alias, for reads that join several tables.
 * The database-auth feature fills this in for JWT users; joins call it for every table they read.
 */
export const rowFilter = (
  caller: Caller,
  _schema: DatabaseSchema,
  _table: string,
  _action: PolicyAction,
  _qualifier?: string,
): RawBuilder<unknown> | "deny" | undefined => {
  if (caller.kind === "key") return undefined;
  return "deny";
};
