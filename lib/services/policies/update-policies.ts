import type { z } from "zod";
import { type FieldError, validationFailed } from "../../errors";
import type { PoliciesInput } from "../../contract/schemas/auth";
import { PolicyError, parsePolicy } from "../../rls/parse-policy";
import { policyColumnTypes } from "../../rls/row-filter";
import type { PolicyAction, TableDef } from "../../schema/types";
import { type DbCtx, nowIso } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { POLICY_ACTIONS, policiesView } from "./get-policies";

/**
 * Checks every action's policy against the table; each problem is a 422 entry with its 1-based position in the
 * text. An unknown action is listed here, beside those (PoliciesInput lets it through for that).
 */
const parsePolicies = (table: TableDef, body: z.output<typeof PoliciesInput>): Record<PolicyAction, string | null> => {
  const errors: (FieldError & { position?: number })[] = [];
  for (const key of Object.keys(body)) {
    if (!POLICY_ACTIONS.includes(key as PolicyAction)) errors.push({ field: key, code: "unknown_property", message: `"${key}" is not an action (select, insert, update, delete)` });
  }
  const columns = policyColumnTypes(table);
  const out = {} as Record<PolicyAction, string | null>;
  for (const action of POLICY_ACTIONS) {
    const text = body[action];
    out[action] = null;
    if (text === undefined || text === null) continue;
    try {
      parsePolicy(text, columns);
      out[action] = text;
    } catch (err) {
      if (!(err instanceof PolicyError)) throw err;
      errors.push({ field: action, code: "invalid_policy", message: err.message, position: err.position });
    }
  }
  if (errors.length) throw validationFailed(errors);
  return out;
};

export type UpdatePoliciesInput = { instance: string; table: string; body: z.output<typeof PoliciesInput> };

/** PUT /databases/{instance}/tables/{table}/policies replaces all four actions (absent or null = denied). */
export const updatePolicies = async (ctx: DbCtx, { instance, table: tableName, body: input }: UpdatePoliciesInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  const policies = parsePolicies(table, input);
  const row = { table_id: table.id, database_id: schema.id, policies: JSON.stringify(policies), updated_at: nowIso() };
  await changeSchema(ctx, schema, { kind: "policies", table }, {
    metadata: async (trx) => {
      await trx.deleteFrom("table_policies").where("table_id", "=", table.id).execute();
      await trx.insertInto("table_policies").values(row).execute();
    },
  });
  return policiesView({ ...table, policies });
};
