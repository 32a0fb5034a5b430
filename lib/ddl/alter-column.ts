import { isFile } from "../schema/type-traits";
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef, ColumnType, TableDef } from "../schema/types";
import { columnSql } from "./column-sql";
import { writeColumn } from "./column-values";
import {
  addForeignKeyClause,
  addUniqueClause,
  alterMysqlTable,
  dropMysqlForeignKeys,
  dropMysqlIndexes,
} from "./mysql-constraints";
import type { OptionRenames } from "./option-renames";
import type { ConvertedRow } from "./plan-column-values";
import { rebuildSqliteTable } from "./rebuild-sqlite-table";
import { renameIndexColumn } from "../schema/indexes";
import { managedIndexes } from "./sync-indexes";

export type ColumnChange = {
  physical: string;
  /** The table as it is now. */
  table: TableDef;
  from: ColumnDef;
  to: ColumnDef;
  /** Every non-null row with the value it must hold afterwards (already validated). */
  rows: ConvertedRow[];
  renames: OptionRenames;
};

/** User names cannot start with "_", so the temporary column never collides with one. */
const TEMP = "_tabula_convert";

const NUMBERS: ColumnType[] = ["int", "bigint", "reference", "boolean", "decimal", "float"];
const INTEGERS: ColumnType[] = ["int", "bigint", "reference"];
const STRINGS: ColumnType[] = ["varchar", "text", "password", "dropdown"];
const PLAIN_TEXT: ColumnType[] = ["varchar", "text"];

/**
 * Where MySQL's own CHANGE COLUMN conversion gives exactly the values ours does (the values were checked
 * before): numbers among numbers, strings among strings (ENUM by value), integers to text and back,
 * date to datetime and back. Everything else (booleans or decimals to text, anything to JSON, option renames…) goes through a
 * temporary column filled with our values.
 */
const mysqlConvertsLikeUs = (from: ColumnType, to: ColumnType) =>
  from === to ||
  (NUMBERS.includes(from) && NUMBERS.includes(to)) ||
  (STRINGS.includes(from) && STRINGS.includes(to)) ||
  (INTEGERS.includes(from) && PLAIN_TEXT.includes(to)) ||
  (PLAIN_TEXT.includes(from) && [...INTEGERS, "decimal", "float"].includes(to)) ||
  (from === "date" && ["datetime", ...PLAIN_TEXT].includes(to)) ||
  (from === "datetime" && to === "date");

const alterMysqlColumn = async (udb: UserDb, { physical, table, from, to, rows, renames }: ColumnChange) => {
  const where = { udb, physical, table: table.name, column: from.name };
  const sameDef =
    from.name === to.name && TYPE_SPECS[from.type].mysql(from) === TYPE_SPECS[to.type].mysql(to) && from.nullable === to.nullable;
  // A file column that becomes multiple (or single) keeps its JSON type but each value changes shape.
  const reshaped = isFile(from) && !!from.multiple !== !!to.multiple;
  // Values that did not fit and were asked to become NULL (`misfits: "null"`): MySQL would refuse or truncate them.
  const nulled = rows.some((r) => r.stored === null && r.raw !== null && r.raw !== undefined);
  const direct = renames.size === 0 && mysqlConvertsLikeUs(from.type, to.type) && !reshaped && !nulled;
  // A column in a foreign key cannot change, nor lose the index the key uses: drop the key, add it back after.
  const dropKey = !!from.references && (!sameDef || !direct || from.references !== to.references || (from.unique && !to.unique));
  const dropUnique = from.unique && !to.unique;
  const undo: RawBuilder<unknown>[] = [];
  // Rows given a fill value (they were NULL): written before a direct CHANGE to NOT NULL, set back on failure.
  const filled = direct ? rows.filter((r) => r.raw === null || r.raw === undefined) : [];
  if (filled.length) await writeColumn(udb.db, udb, table.name, from.name, filled.map((r) => [r.id, r.stored]));
  try {
    if (dropKey) {
      await dropMysqlForeignKeys(where);
      undo.push(addForeignKeyClause(udb, from.name, from.references!));
    }
    if (dropUnique) {
      await dropMysqlIndexes(where, { unique: true, plain: false });
      undo.push(addUniqueClause(from.name));
    }
    const clauses = [];
    if (!direct) {
      const temp = columnSql(udb, { ...to, name: TEMP }, { forceNullable: true });
      await alterMysqlTable(udb, table.name, [sql`ADD COLUMN ${temp} AFTER ${sql.id(from.name)}`]);
      undo.unshift(sql`DROP COLUMN ${sql.id(TEMP)}`);
      await writeColumn(udb.db, udb, table.name, TEMP, rows.map((r) => [r.id, r.stored]));
      // MariaDB would keep the column's indexes with it left out (a unique one could then fail): drop them in the
      // same statement; syncIndexes builds them again on the new column.
      const indexed = [...(await managedIndexes(udb, physical, table.name))].filter(([, columns]) => columns.includes(from.name));
      clauses.push(...indexed.map(([name]) => sql`DROP INDEX ${sql.id(name)}`));
      clauses.push(sql`DROP COLUMN ${sql.id(from.name)}`, sql`CHANGE COLUMN ${sql.id(TEMP)} ${columnSql(udb, to)}`);
    } else if (!sameDef) {
      clauses.push(sql`CHANGE COLUMN ${sql.id(from.name)} ${columnSql(udb, to)}`);
    }
    // Dropping the old column (temporary-column path) took its unique index with it.
    if (to.unique && (!from.unique || !direct)) clauses.push(addUniqueClause(to.name));
    if (to.references && (dropKey || !from.references)) clauses.push(addForeignKeyClause(udb, to.name, to.references));
    await alterMysqlTable(udb, table.name, clauses);
  } catch (err) {
    // MySQL DDL is not transactional, but this last ALTER is all or nothing: put back what came before it.
    await alterMysqlTable(udb, table.name, undo).catch(() => undefined);
    if (filled.length) await writeColumn(udb.db, udb, table.name, from.name, filled.map((r) => [r.id, null])).catch(() => undefined);
    throw err;
  }
  if (from.references && !to.references && direct) {
    await dropMysqlIndexes({ ...where, column: to.name }, { unique: false, plain: true });
  }
};

const alterSqliteColumn = async (udb: UserDb, { table, from, to, rows }: ColumnChange) => {
  const values = rows.filter((r) => r.stored !== r.raw).map((r): [number, unknown] => [r.id, r.stored]);
  const sameShape =
    TYPE_SPECS[from.type].sqlite(from) === TYPE_SPECS[to.type].sqlite(to) &&
    from.nullable === to.nullable &&
    from.unique === to.unique &&
    from.references === to.references;
  if (!sameShape) {
    const next = { ...table, columns: table.columns.map((c) => (c.name === from.name ? to : c)), indexes: renameIndexColumn(table.indexes, from.name, to.name) };
    const writes = values.length ? { column: to.name, values } : undefined;
    // Rows given a fill value must hold it while they are copied, or a NOT NULL copy would refuse them.
    const fill = rows.find((r) => r.raw === null || r.raw === undefined);
    const source = fill ? sql`COALESCE(${sql.id(from.name)}, ${fill.stored})` : sql.id(from.name);
    await rebuildSqliteTable(udb, { from: table.name, next, sources: { [to.name]: source }, writes });
    return;
  }
  await udb.db.transaction().execute(async (trx) => {
    if (from.name !== to.name) {
      await sql`ALTER TABLE ${udb.table(table.name)} RENAME COLUMN ${sql.id(from.name)} TO ${sql.id(to.name)}`.execute(trx);
    }
    await writeColumn(trx, udb, table.name, to.name, values);
  });
};

/** Applies a validated column change on either engine, keeping every row, its id and its timestamps. */
export const alterColumn = (udb: UserDb, change: ColumnChange) =>
  udb.engine === "sqlite" ? alterSqliteColumn(udb, change) : alterMysqlColumn(udb, change);
