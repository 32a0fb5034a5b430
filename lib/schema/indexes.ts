// Indexes as part of a table's schema: `"index": true` on a column (always on for a reference), and a table's
// `indexes` over several columns. Validation, how they follow column renames and drops, and the engine names.
import { createHash } from "node:crypto";
import type { FieldError } from "../errors";
import { TYPE_SPECS } from "./column-types";
import { NAME_RE } from "./names";
import { type ColumnDef, type IndexDef, recordColumns, type TableDef } from "./types";

/** InnoDB's largest index key; SQLite has no limit, but the schema is a MySQL schema on both engines. */
const MAX_KEY_BYTES = 3072;

const keyBytes = (columns: ColumnDef[]) => columns.reduce((sum, c) => sum + TYPE_SPECS[c.type].keyBytes(c), 0);

/** Why a column (or several) cannot be indexed together, or undefined when they can. */
export const indexProblem = (columns: ColumnDef[]): { code: string; message: string } | undefined => {
  const unindexable = columns.find((c) => !TYPE_SPECS[c.type].indexable);
  if (unindexable) return { code: "not_indexable", message: `a ${unindexable.type} column ("${unindexable.name}") cannot be indexed` };
  const bytes = keyBytes(columns);
  if (bytes > MAX_KEY_BYTES) {
    return { code: "key_too_long", message: `the index key would take ${bytes} bytes (at most ${MAX_KEY_BYTES}; a varchar(n) takes 4n + 2)` };
  }
  return undefined;
};

/** An index object after its properties passed their own checks (lib/contract/schemas/columns.ts). */
export type IndexFields = { columns: string[]; unique?: boolean; name?: string };

/**
 * Checks one index against the table's columns (automatic ones included) and the indexes it already has;
 * field paths are prefixed with `at`.
 */
export const parseIndex = (input: IndexFields, at: string, table: TableDef): { index?: IndexDef; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ field: `${at}${field}`, code, message });
  const names = input.columns;
  const byName = new Map(recordColumns(table).map((c) => [c.name, c]));
  const columns: ColumnDef[] = [];
  names.forEach((name, i) => {
    const column = byName.get(name);
    if (!column) fail(`columns[${i}]`, "unknown_column", `${JSON.stringify(name)} is not a column of table "${table.name}"`);
    else if (names.indexOf(name) !== i) fail(`columns[${i}]`, "duplicate", `column "${name}" is listed twice`);
    else columns.push(column);
  });
  if (errors.length) return { errors };
  const problem = indexProblem(columns);
  if (problem) fail("columns", problem.code, problem.message);
  const name = input.name ?? names.join("_").slice(0, 63);
  if (!NAME_RE.test(name)) {
    fail("name", "invalid_name", "an index name must start with a lowercase letter and use only a-z, 0-9 and _ (at most 63 characters)");
  } else if (table.indexes?.some((i) => i.name === name)) {
    fail("name", "duplicate", `table "${table.name}" already has an index named "${name}"`);
  }
  const same = table.indexes?.find((i) => i.columns.join() === names.join());
  if (same) fail("columns", "duplicate", `index "${same.name}" already covers (${names.join(", ")})`);
  if (errors.length) return { errors };
  return { index: { name, columns: names, unique: input.unique === true }, errors };
};

/** A table's `indexes` array in a create body; each is checked against the table and the ones before it. */
export const parseIndexes = (input: IndexFields[] = [], at: string, table: TableDef): { indexes: IndexDef[]; errors: FieldError[] } => {
  const indexes: IndexDef[] = [];
  const errors: FieldError[] = [];
  input.forEach((raw, i) => {
    const parsed = parseIndex(raw, `${at}indexes[${i}].`, { ...table, indexes });
    errors.push(...parsed.errors);
    if (parsed.index) indexes.push(parsed.index);
  });
  return { indexes, errors };
};

/** The table's indexes after a column rename: they keep their names and follow the column. */
export const renameIndexColumn = (indexes: IndexDef[] = [], from: string, to: string) =>
  indexes.map((i) => (i.columns.includes(from) ? { ...i, columns: i.columns.map((c) => (c === from ? to : c)) } : i));

/** The table's indexes after a column drop: an index containing the column is dropped with it. */
export const dropIndexColumn = (indexes: IndexDef[] = [], column: string) => indexes.filter((i) => !i.columns.includes(column));

/** An index as the engines hold it: a deterministic name and the columns it covers. */
export type EngineIndex = { name: string; columns: string[]; unique: boolean };

/**
 * `_ix_<table id>_<columns>_<hash>` (`_ux_` when unique): user names never start with "_", the table id keeps
 * names distinct across a SQLite file and unchanged by a table rename, and the hash of the definition makes a
 * changed index a new name. At most 55 characters (MySQL allows 64).
 */
const engineIndexName = (tableId: number, columns: string[], unique: boolean) => {
  const hash = createHash("sha256").update(JSON.stringify([columns, unique])).digest("hex").slice(0, 8);
  return `_${unique ? "ux" : "ix"}_${tableId}_${columns.join("_").slice(0, 30)}_${hash}`;
};

/** The plain and composite indexes a table must have on the engine (unique columns have their own constraint). */
export const engineIndexes = (table: TableDef): EngineIndex[] => [
  ...table.columns
    .filter((c) => (c.index || c.references) && !c.unique)
    .map((c) => ({ name: engineIndexName(table.id, [c.name], false), columns: [c.name], unique: false })),
  ...(table.indexes ?? []).map((i) => ({ name: engineIndexName(table.id, i.columns, i.unique), columns: i.columns, unique: i.unique })),
];

/** Engine index names this module manages (the others are primary keys, unique constraints, foreign keys). */
export const isManagedIndex = (name: string) => /^_[iu]x_\d+_/.test(name);
