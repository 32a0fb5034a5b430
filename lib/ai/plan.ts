// The AI builder's draft plan: tables, joins and seed rows, checked by the same validators the management and
// data APIs use, so a plan that passes here applies without surprises. Pure: no database access.
import { indexTable } from "../api/table-index";
import { parseRecordBody } from "../api/parse-body";
import { ApiError, type FieldError } from "../errors";
import { parseJoinDefinition } from "../joins/parse-join-definition";
import { problemErrors, toFieldErrors } from "../contract/field-errors";
import { DatabaseName, TableInput } from "../contract/schemas/databases";
import { JoinStructure } from "../contract/schemas/joins";
import { toNewTable, unknownReferences } from "../contract/schemas/table-rules";
import type { ColumnDef, DatabaseSchema, TableDef } from "../schema/types";

/** A column object exactly as the management API takes it (name, type, nullable, unique, default, length, …). */
export type PlanColumn = Record<string, unknown>;
export type PlanTable = { name: string; columns: PlanColumn[] };
export type PlanJoin = { name: string; base: string; joins: { table: string; on: [string, string][] }[]; columns: { column: string; as: string }[] };
export type DraftPlan = { name: string; tables: PlanTable[]; joins: PlanJoin[]; seed: Record<string, Record<string, unknown>[]> };
export type ValidPlan = { name: string; tables: { name: string; columns: ColumnDef[] }[]; joins: PlanJoin[]; seed: Record<string, Record<string, unknown>[]> };

const MAX_SEED_ROWS = 50;

const PLAN_KEYS = new Set(["name", "tables", "joins", "seed"]);

export const emptyPlan = (name = ""): DraftPlan => ({ name, tables: [], joins: [], seed: {} });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const listOf = (value: unknown, field: string, errors: FieldError[]): unknown[] => {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  errors.push({ field, code: "invalid_type", message: `${field} must be an array` });
  return [];
};

/** One planned table checked by the management API's own table schema, its references against `known`. */
export const parsePlannedTable = (input: unknown, known: (name: string) => boolean, at: (string | number)[] = []) => {
  const parsed = TableInput.safeParse(input, { reportInput: true });
  if (!parsed.success) return { errors: toFieldErrors(parsed.error.issues, at) };
  const unknown = unknownReferences([parsed.data], known, () => at);
  return unknown.length ? { errors: problemErrors(unknown) } : { table: toNewTable(parsed.data), errors: [] };
};

/** Tables in order: a reference may point at an existing table or an earlier planned one (rows are created in that order). */
const checkTables = (raw: unknown[], existing: DatabaseSchema | undefined, errors: FieldError[]): TableDef[] => {
  const planned = raw.map((t) => (isObject(t) && typeof t.name === "string" ? t.name : undefined));
  const known = (name: string) => existing?.tables.has(name) === true || planned.includes(name);
  const tables: TableDef[] = [];
  raw.forEach((input, i) => {
    const at = `tables[${i}].`;
    const parsed = parsePlannedTable(input, known, ["tables", i]);
    errors.push(...parsed.errors);
    const columns = isObject(input) && Array.isArray(input.columns) ? input.columns : [];
    columns.forEach((c: unknown, j) => {
      if (!isObject(c) || c.type !== "reference" || typeof c.references !== "string" || existing?.tables.has(c.references)) return;
      const target = planned.indexOf(c.references);
      if (target < i) return;
      const message = target === i
        ? `"${c.references}" cannot reference itself in a plan; a reference must point at an existing or earlier planned table`
        : `table "${c.references}" must be planned before "${planned[i]}" to be referenced by it`;
      errors.push({ field: `${at}columns[${j}].references`, code: "reference_order", message });
    });
    if (!parsed.table) return;
    const { name } = parsed.table;
    if (planned.indexOf(name) !== i) {
      errors.push({ field: `${at}name`, code: "duplicate", message: `table "${name}" is planned twice` });
    } else if (existing?.tables.has(name) || existing?.joins?.has(name)) {
      errors.push({ field: `${at}name`, code: "name_taken", message: `"${name}" is already a table or join of database "${existing.instance}"` });
    } else {
      tables.push({ id: -(i + 1), ...parsed.table });
    }
  });
  return tables;
};

/** Existing tables plus the planned ones, the shape the join parser reads. */
const draftSchema = (existing: DatabaseSchema | undefined, planned: TableDef[]): DatabaseSchema => ({
  ...(existing ?? { id: 0, instance: "draft", name: "draft", ownerId: 0, engine: "sqlite", physical: "", version: 0 }),
  tables: new Map([...(existing?.tables ?? []), ...planned.map((t) => [t.name, t] as const)]),
});

/** A join over a planned table that failed its own checks is left until that table is fixed (its errors are listed). */
const usesFailedTable = (input: Record<string, unknown>, failed: string[]) =>
  [input.base, ...(Array.isArray(input.joins) ? input.joins.map((j) => (isObject(j) ? j.table : undefined)) : [])].some(
    (t) => typeof t === "string" && failed.includes(t),
  );

const checkJoins = (raw: unknown[], existing: DatabaseSchema | undefined, planned: TableDef[], failed: string[], errors: FieldError[]): PlanJoin[] => {
  const schema = draftSchema(existing, planned);
  const joins: PlanJoin[] = [];
  raw.forEach((input, i) => {
    const at = `joins[${i}]`;
    if (isObject(input) && usesFailedTable(input, failed)) return;
    const parsed = JoinStructure.safeParse(input, { reportInput: true });
    if (!parsed.success) return void errors.push(...toFieldErrors(parsed.error.issues, ["joins", i]));
    try {
      const { sql: _sql, ...spec } = parseJoinDefinition(parsed.data, schema);
      if (existing?.tables.has(spec.name) || existing?.joins?.has(spec.name)) {
        return void errors.push({ field: `${at}.name`, code: "name_taken", message: `"${spec.name}" is already a table or join of database "${existing.instance}"` });
      }
      if (schema.tables.has(spec.name) || joins.some((j) => j.name === spec.name)) {
        return void errors.push({ field: `${at}.name`, code: "duplicate", message: `"${spec.name}" is already planned as a table or join; tables and joins share names` });
      }
      joins.push(spec);
    } catch (err) {
      if (!(err instanceof ApiError) || !err.errors) throw err;
      errors.push(...err.errors.map((e) => ({ ...e, field: `${at}.${e.field}` })));
    }
  });
  return joins;
};

/** Seed rows go into new tables, so row n gets id n: a reference must name a row planned for its target. */
const checkSeed = (raw: unknown, tables: TableDef[], plannedNames: string[], errors: FieldError[]) => {
  if (raw === undefined) return {};
  if (!isObject(raw)) {
    errors.push({ field: "seed", code: "invalid_type", message: 'seed must be an object {"<table>": [rows]}' });
    return {};
  }
  const seed = raw;
  const rowCount = (table: string) => (Array.isArray(seed[table]) ? (seed[table] as unknown[]).length : 0);
  for (const [name, rows] of Object.entries(seed)) {
    const at = `seed.${name}`;
    if (!plannedNames.includes(name)) {
      errors.push({ field: at, code: "unknown_table", message: `seed rows can only go into a table of this plan; "${name}" is not one` });
      continue;
    }
    if (!Array.isArray(rows)) {
      errors.push({ field: at, code: "invalid_type", message: `${at} must be an array of rows` });
      continue;
    }
    if (rows.length > MAX_SEED_ROWS) errors.push({ field: at, code: "too_many_rows", message: `at most ${MAX_SEED_ROWS} seed rows per table; got ${rows.length}` });
    // A table that failed its own checks has no definition to check rows against; its errors are already listed.
    const table = tables.find((t) => t.name === name);
    if (!table) continue;
    const index = indexTable(table);
    const seen = new Map<string, Set<unknown>>();
    rows.slice(0, MAX_SEED_ROWS).forEach((row, r) => {
      const { write, errors: rowErrors } = parseRecordBody(index, row, "create", `${at}[${r}].`);
      errors.push(...rowErrors);
      for (const column of table.columns) {
        const value = write.values[column.name];
        if (value === undefined || value === null) continue;
        const field = `${at}[${r}].${column.name}`;
        if (column.type === "reference" && plannedNames.includes(column.references!)) {
          const count = rowCount(column.references!);
          if ((value as number) > count) {
            errors.push({ field, code: "seed_reference", message: `"${column.name}" points at row ${value} of ${column.references}, which has ${count} seed row${count === 1 ? "" : "s"}` });
          }
        }
        if (column.unique) {
          // MySQL compares text case-insensitively, so "Ann" and "ann" would clash there.
          const key = typeof value === "string" ? value.toLowerCase() : value;
          const values = seen.get(column.name) ?? new Set();
          if (values.has(key)) errors.push({ field, code: "duplicate", message: `"${column.name}" is unique and ${JSON.stringify(value)} appears in an earlier seed row` });
          seen.set(column.name, values.add(key));
        }
      }
    });
  }
  return seed as Record<string, Record<string, unknown>[]>;
};

/** Validates the whole plan; `existing` is the database being extended (its tables may be referenced and joined; planned tables must not clash with them). */
export const validatePlan = (plan: DraftPlan, existing?: DatabaseSchema): { plan?: ValidPlan; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  if (!isObject(plan)) return { errors: [{ field: "plan", code: "invalid_type", message: 'a plan must be an object {"name", "tables", "joins", "seed"}' }] };
  for (const key of Object.keys(plan)) {
    if (!PLAN_KEYS.has(key)) errors.push({ field: key, code: "unknown_property", message: `unknown plan property "${key}"` });
  }
  if (!existing || (plan.name !== undefined && plan.name !== "")) {
    const name = DatabaseName.safeParse(plan.name, { reportInput: true });
    if (!name.success) errors.push(...toFieldErrors(name.error.issues, ["name"]));
  }
  const rawTables = listOf(plan.tables, "tables", errors);
  if (!existing && rawTables.length === 0 && (plan.tables === undefined || Array.isArray(plan.tables))) {
    errors.push({ field: "tables", code: "required", message: "a new database needs at least one table" });
  }
  const tables = checkTables(rawTables, existing, errors);
  const plannedNames = rawTables.map((t) => (isObject(t) ? t.name : undefined)).filter((n): n is string => typeof n === "string");
  const failed = plannedNames.filter((n) => !tables.some((t) => t.name === n));
  const joins = checkJoins(listOf(plan.joins, "joins", errors), existing, tables, failed, errors);
  const seed = checkSeed(plan.seed, tables, plannedNames, errors);
  if (errors.length) return { errors };
  const name = typeof plan.name === "string" && plan.name.trim() ? plan.name.trim() : (existing?.name ?? "");
  return { plan: { name, tables: tables.map((t) => ({ name: t.name, columns: t.columns })), joins, seed }, errors };
};
