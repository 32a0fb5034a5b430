import type { RawBuilder } from "kysely";
import type { Caller } from "../api/authenticate";
import type { DatabaseSchema, PolicyAction, TableDef } from "../schema/types";
import { recordColumns } from "../schema/types";
import { compilePolicy } from "./compile-policy";
import { parsePolicy, type PolicyNode } from "./parse-policy";

export type { PolicyAction };

// Parsed policies per table definition; a schema change replaces the TableDef, so entries fall away with it.
const parsed = new WeakMap<TableDef, Map<PolicyAction, PolicyNode | null>>();

/** Column name → type of every column a policy on this table may name. */
export const policyColumnTypes = (table: TableDef) => new Map(recordColumns(table).map((c) => [c.name, c.type]));

export const parsedPolicy = (table: TableDef, action: PolicyAction): PolicyNode | null => {
  let byAction = parsed.get(table);
  if (!byAction) parsed.set(table, (byAction = new Map()));
  let node = byAction.get(action);
  if (node === undefined) {
    const text = table.policies?.[action];
    try {
      node = typeof text === "string" ? parsePolicy(text, policyColumnTypes(table)) : null;
    } catch {
      node = null; // saved policies are checked at save; one that no longer parses denies (fail closed)
    }
    byAction.set(action, node);
  }
  return node;
};

/**
 * The row predicate a caller is held to for one action on one table: undefined = every row (secret keys,
 * the server role); "deny" = the action is closed to this caller (no policy). `qualifier` prefixes column
 * references with a table alias, for reads that join several tables.
 */
export const rowFilter = (
  caller: Caller,
  schema: DatabaseSchema,
  tableName: string,
  action: PolicyAction,
  qualifier?: string,
): RawBuilder<unknown> | "deny" | undefined => {
  if (caller.kind === "key") return undefined;
  if (caller.databaseId !== schema.id) return "deny";
  const table = schema.tables.get(tableName);
  if (!table) return "deny";
  const node = parsedPolicy(table, action);
  if (!node) return "deny";
  const columns = new Map(recordColumns(table).map((c) => [c.name, c]));
  return compilePolicy(node, { engine: schema.engine, columns, qualifier, claims: { ...caller.claims, id: caller.userId } });
};
