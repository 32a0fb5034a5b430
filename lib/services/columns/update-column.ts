import { columnFileKeys, deleteKeys } from "../../api/files/drop-files";
import { recountStorage } from "../../api/files/storage-usage";
import { commitAuditOnly } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import { alterColumn } from "../../ddl/alter-column";
import { convertValue, passwordRefusal, typeLabel } from "../../ddl/convert-value";
import { checkOptionRenames, type OptionRenames, refuseOptionsInUse, renamedOptions } from "../../ddl/option-renames";
import { planColumnValues } from "../../ddl/plan-column-values";
import type { z } from "zod";
import { conflict, invalidField, notFound, validationFailed } from "../../errors";
import { parseWith } from "../../contract/parse-input";
import { toColumnDef } from "../../contract/schemas/column-rules";
import { ColumnInput, type ColumnPatch } from "../../contract/schemas/columns";
import { TYPE_SPECS } from "../../schema/column-types";
import { limitFieldOf, tableLimitErrors } from "../../schema/table-limits";
import { AUTH_ID_DEFAULT, type ColumnDef, type ColumnType } from "../../schema/types";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { columnView } from "../../meta/serialize";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { assertReferenceExists } from "./assert-reference-exists";
import { holdsUserId, isSecret, takesParam, TYPE_PARAMS } from "../../schema/type-traits";

/** The current definition overlaid with the patch; properties of the old type that the new one lacks fall away. */
const mergeInput = (from: ColumnDef, input: Record<string, unknown>) => {
  const type = (input.type ?? from.type) as ColumnType;
  const merged: Record<string, unknown> = { name: from.name, type, nullable: from.nullable, unique: from.unique };
  // A column keeps its index through a change (a type that cannot hold one is then a 422 naming `index`); the
  // index every reference has stays while the new type can hold one.
  if (from.references ? TYPE_SPECS[type].indexable : from.index) merged.index = true;
  // Likewise `searchable`: a type that cannot be searched is then a 422 naming it.
  if (from.searchable) merged.searchable = true;
  for (const key of TYPE_PARAMS) if (from[key] !== undefined && takesParam(type, key)) merged[key] = from[key];
  // A `default: null` in the patch passes through: toColumnDef reads it as "no default".
  return { ...merged, ...input };
};

/** Without a new default in the patch, the current one is converted like the rows are. */
const carryDefault = (from: ColumnDef, to: ColumnDef, renames: OptionRenames): ColumnDef => {
  if (from.default === undefined) return to;
  if (from.default === AUTH_ID_DEFAULT && holdsUserId(to)) return { ...to, default: AUTH_ID_DEFAULT };
  const converted = convertValue(from.default, from, to, renames);
  // A default option renamed to null: the column has no default any more.
  if (converted.ok && converted.value === null) return to;
  if (converted.ok && !isSecret(to) && TYPE_SPECS[to.type].fromJson(converted.value, to).ok) {
    return { ...to, default: converted.value };
  }
  throw invalidField(
    "default",
    "lossy_conversion",
    `the current default ${JSON.stringify(from.default)} does not fit ${typeLabel(to)}; send a new default, or null to remove it`,
  );
};

const sameColumn = (a: ColumnDef, b: ColumnDef) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].every(
    (key) => JSON.stringify(a[key as keyof ColumnDef]) === JSON.stringify(b[key as keyof ColumnDef]),
  );

export type UpdateColumnInput = { instance: string; table: string; column: string; body: z.output<typeof ColumnPatch> };

/**
 * PATCH of a column with a partial column object: rename, type, length, precision/scale, options, nullable,
 * unique, default, reference target. Rows are converted losslessly or the change is refused (422) untouched.
 */
export const updateColumn = async (ctx: DbCtx, { table: tableName, column: columnName, body: input }: UpdateColumnInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  const from = table.columns.find((c) => c.name === columnName);
  if (!from) throw notFound(`Column "${columnName}" was not found in table "${table.name}".`);
  const { fill, rename, misfits, ...patch } = input;
  if (rename && (!takesParam(from, "options") || !takesParam(patch.type ?? from.type, "options"))) {
    throw invalidField("rename", "invalid_rename", "rename applies to the options of a dropdown column");
  }
  const options = rename && !patch.options ? renamedOptions(from.options ?? [], rename) : patch.options;
  const merged = parseWith(ColumnInput, mergeInput(from, options ? { ...patch, options } : patch));
  assertReferenceExists(schema, merged);
  const parsed = toColumnDef(merged);
  const refusal = passwordRefusal(from, parsed);
  if (refusal) throw validationFailed([refusal]);
  if (parsed.name !== from.name && table.columns.some((c) => c.name === parsed.name)) {
    throw conflict(`Column "${parsed.name}" already exists in table "${table.name}".`);
  }
  const dropdown = takesParam(from, "options") && takesParam(parsed, "options");
  const renames: OptionRenames = dropdown ? checkOptionRenames(from, parsed, rename ?? {}) : new Map();
  if (dropdown) await refuseOptionsInUse(ctx.app.engine.userDb(schema.physical), table.name, from, parsed, renames);
  const to = patch.default === undefined ? carryDefault(from, parsed, renames) : parsed;
  noteAudit(ctx, { before: columnView(from), after: columnView(to) });
  if (sameColumn(from, to)) return commitAuditOnly(ctx).then(() => columnView(from));
  const limits = tableLimitErrors(table.columns.map((c) => (c === from ? to : c)), limitFieldOf(to));
  if (limits.length) throw validationFailed(limits);

  const udb = ctx.app.engine.userDb(schema.physical);
  const rows = await planColumnValues(udb, table.name, from, to, renames, fill === undefined ? undefined : { value: fill }, misfits);
  const columns = JSON.stringify(table.columns.map((c) => (c === from ? to : c)));
  const filesBefore = await columnFileKeys(udb, schema, table, from);
  // Joins, policies and auth settings naming the column follow a rename (see ../schema-change/dependents.ts).
  await changeSchema(ctx, schema, { kind: "update-column", table, from, to }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ columns }).where("id", "=", table.id).execute()),
    ddl: (udb) => alterColumn(udb, { physical: schema.physical, table, from, to, rows, renames }),
  });
  // Files the rows no longer name (misfits made NULL) go after the commit, and the storage counter follows.
  if (filesBefore.length) {
    const named = new Set(await columnFileKeys(udb, schema, table, to));
    await deleteKeys(ctx.app, filesBefore.filter((key) => !named.has(key)));
    await recountStorage(ctx.app, schema.instance);
  }
  return columnView(to);
};
