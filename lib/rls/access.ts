import type { RawBuilder } from "kysely";
import { ApiError } from "../errors";
import type { PolicyAction } from "../schema/types";

/** The caller's row predicate per table and action (see rowFilter); built once per request. */
export type Access = (table: string, action: PolicyAction) => RawBuilder<unknown> | "deny" | undefined;

/** The server role: every row of every table. */
export const FULL_ACCESS: Access = () => undefined;

/** Predicates to AND into a statement for this action; 403 when the action is closed to the caller. */
export const predicatesFor = (access: Access, table: string, action: PolicyAction): RawBuilder<unknown>[] => {
  const filter = access(table, action);
  if (filter === "deny") throw new ApiError("forbidden", `No ${action} policy on table "${table}" allows this for your token.`);
  return filter ? [filter] : [];
};

/** Like predicatesFor for select, but "none" instead of 403 (an expansion shows a hidden or closed table's row as null). */
export const visibleRows = (access: Access, table: string): RawBuilder<unknown>[] | "none" => {
  const filter = access(table, "select");
  if (filter === "deny") return "none";
  return filter ? [filter] : [];
};
