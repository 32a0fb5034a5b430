// Pre hooks name columns of their own table (`new.price`, `set: "total"`): a rename rewrites them; dropping a
// column a hook uses is refused with 409 naming the hook.
import { conflict } from "../../errors";
import { nowIso } from "../context";
import { type BesideSchema, columnRename, type SchemaDependent } from "./schema-change";
import type { TableDef } from "../../schema/types";
import { HOOK_ACTIONS, type HookStep } from "../../hooks/hooks";

const mentions = (text: string, column: string) => new RegExp(`\\b(new|old)\\.${column}\\b`).test(text);

const stepsOf = ({ hooks }: BesideSchema, table: TableDef) => {
  const compiled = hooks.get(table.name);
  return compiled ? HOOK_ACTIONS.flatMap((action) => compiled.steps[action].map(({ step }, i) => ({ action, i, step }))) : [];
};

const uses = (step: HookStep, column: string) => ("set" in step ? step.set === column || mentions(step.expr, column) : mentions(step.assert, column));

const renameIn = (text: string, from: string, to: string) => text.replace(new RegExp(`\\b(new|old)\\.${from}\\b`, "g"), `$1.${to}`);

const renamed = (step: HookStep, from: string, to: string): HookStep =>
  "set" in step ? { set: step.set === from ? to : step.set, expr: renameIn(step.expr, from, to) } : { assert: renameIn(step.assert, from, to), message: step.message };

export const hooksDependent: SchemaDependent = {
  name: "hooks",
  refuse: (_schema, change, beside) => {
    if (change.kind !== "drop-column") return;
    const user = stepsOf(beside, change.table).find(({ step }) => uses(step, change.column.name));
    if (user) throw conflict(`Column "${change.column.name}" is used by step ${user.i} of the ${user.action} hook of table "${change.table.name}"; change that hook first.`);
  },
  follow: async (trx, _schema, change, beside) => {
    const rename = columnRename(change);
    const compiled = rename && beside.hooks.get(rename.table.name);
    if (!rename || !compiled) return;
    const hooks = Object.fromEntries(HOOK_ACTIONS.map((a) => [a, compiled.steps[a].map(({ step }) => renamed(step, rename.from, rename.to))]));
    await trx.updateTable("table_hooks").set({ hooks: JSON.stringify(hooks), updated_at: nowIso() }).where("table_id", "=", rename.table.id).execute();
  },
};
