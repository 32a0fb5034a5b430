import type { PolicyAction, TableDef } from "../../schema/types";
import type { DbCtx } from "../../meta/context";
import { getTableOrThrow } from "../tables/get-table-or-throw";

export const POLICY_ACTIONS: PolicyAction[] = ["select", "insert", "update", "delete"];

/** Every action with its policy text, null where none (denied to JWT users). */
export const policiesView = (table: TableDef) =>
  Object.fromEntries(POLICY_ACTIONS.map((a) => [a, table.policies?.[a] ?? null])) as Record<PolicyAction, string | null>;

export type GetPoliciesInput = { instance: string; table: string };

/** GET /databases/{instance}/tables/{table}/policies */
export const getPolicies = async (ctx: DbCtx, { instance, table }: GetPoliciesInput) =>
  policiesView(getTableOrThrow(ctx.database.schema, table));
