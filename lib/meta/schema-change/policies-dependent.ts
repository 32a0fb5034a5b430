// Row policies name columns of their own table: a rename rewrites them; a drop of a column a policy names, or a
// change that leaves a policy unparsable (e.g. a column becoming a password), is refused with 409 naming it.
import { conflict } from "../../errors";
import { PolicyError, parsePolicy, policyColumns, renamePolicyColumn } from "../../rls/parse-policy";
import { policyColumnTypes } from "../../rls/row-filter";
import type { PolicyAction, TableDef } from "../../schema/types";
import { nowIso } from "../context";
import { columnRename, type SchemaChange, type SchemaDependent } from "./schema-change";
import { POLICY_ACTIONS } from "../../services/policies/get-policies";

const policiesOf = (table: TableDef) =>
  POLICY_ACTIONS.flatMap((action) => {
    const text = table.policies?.[action];
    return typeof text === "string" ? [{ action, text }] : [];
  });

const refuseDrop = (table: TableDef, column: string) => {
  const user = policiesOf(table).find((p) => policyColumns(p.text).includes(column));
  if (user) throw conflict(`Column "${column}" is used by the ${user.action} policy of table "${table.name}"; change that policy first.`);
};

/** A policy that no longer parses would deny silently (rowFilter fails closed); refuse the change instead. */
const refuseBreaking = ({ table, from, to }: Extract<SchemaChange, { kind: "update-column" }>) => {
  const after = policyColumnTypes({ ...table, columns: table.columns.map((c) => (c === from ? to : c)) });
  for (const { action, text } of policiesOf(table).filter((p) => policyColumns(p.text).includes(from.name))) {
    try {
      parsePolicy(from.name === to.name ? text : renamePolicyColumn(text, from.name, to.name), after);
    } catch (err) {
      if (!(err instanceof PolicyError)) throw err;
      throw conflict(`The change to column "${from.name}" breaks the ${action} policy of table "${table.name}" (${err.message}); change that policy first.`);
    }
  }
};

export const policiesDependent: SchemaDependent = {
  name: "policies",
  refuse: (_schema, change) => {
    if (change.kind === "drop-column") refuseDrop(change.table, change.column.name);
    if (change.kind === "update-column") refuseBreaking(change);
  },
  follow: async (trx, _schema, change) => {
    const rename = columnRename(change);
    if (!rename || !rename.table.policies) return;
    const { table, from, to } = rename;
    const policies = Object.fromEntries(
      POLICY_ACTIONS.map((a) => {
        const text = table.policies?.[a];
        return [a, typeof text === "string" ? renamePolicyColumn(text, from, to) : null];
      }),
    ) as Record<PolicyAction, string | null>;
    await trx.updateTable("table_policies").set({ policies: JSON.stringify(policies), updated_at: nowIso() }).where("table_id", "=", table.id).execute();
  },
};
