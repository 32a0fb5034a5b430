// Table limits that are the same on both engines (docs/api.md "Limits"): the number of columns, and MySQL's
// row size, computed from the column types so SQLite refuses what MariaDB would (MariaDB answers 1118).
import type { FieldError } from "../errors";
import type { ColumnDef } from "./types";

/** Columns a table may have besides id, created_at and updated_at (MariaDB stops near 1,017, SQLite at 2,000). */
export const MAX_COLUMNS = 500;
/** MySQL's limit on the sum of a row's column sizes (TEXT and JSON count their pointer only). */
const MAX_ROW_BYTES = 65_535;
/** InnoDB's limit on the part of a row stored in its page (16 KiB pages, DYNAMIC rows), checked at CREATE/ALTER. */
const MAX_INLINE_BYTES = 8_126;

/** id, created_at and updated_at in the row sum; inline also InnoDB's row header and transaction fields (measured on MariaDB 10.11). */
const SYSTEM_ROW_BYTES = 24;
const SYSTEM_INLINE_BYTES = 40;

const decimalBytes = (c: ColumnDef) => 4 * Math.ceil(((c.precision ?? 10) - (c.scale ?? 2)) / 9) + 4 * Math.ceil((c.scale ?? 2) / 9);

/** Bytes a column takes at most: in MySQL's row-size sum, and inline in an InnoDB page (long values go off-page). */
const columnBytes = (c: ColumnDef): { row: number; inline: number } => {
  switch (c.type) {
    case "varchar":
    case "password": {
      const max = 4 * (c.type === "password" ? 60 : (c.length ?? 255));
      const row = max + (max > 255 ? 2 : 1);
      return { row, inline: max > 255 ? 32 : row };
    }
    case "text":
      return { row: 10, inline: 22 };
    case "json":
    case "file":
      return { row: 12, inline: 22 };
    case "int":
      return { row: 4, inline: 4 };
    case "decimal":
      return { row: decimalBytes(c), inline: decimalBytes(c) };
    case "boolean":
      return { row: 1, inline: 1 };
    case "date":
      return { row: 3, inline: 3 };
    case "dropdown":
      return { row: 2, inline: 2 };
    default: // bigint, float, reference, datetime
      return { row: 8, inline: 8 };
  }
};

/** The body field to name when one added or changed column breaks a table limit. */
export const limitFieldOf = (c: ColumnDef) => (c.type === "varchar" ? "length" : "type");

/** 422 entries for a table whose user columns break a limit; `field` names the column list (or the column's size). */
export const tableLimitErrors = (columns: ColumnDef[], field = "columns"): FieldError[] => {
  const user = columns.filter((c) => !c.system);
  if (user.length > MAX_COLUMNS) {
    return [{ field, code: "too_many_columns", message: `a table has at most ${MAX_COLUMNS} columns besides id, created_at and updated_at; this one would have ${user.length}` }];
  }
  const nullBytes = Math.ceil(user.filter((c) => c.nullable).length / 8);
  const sizes = user.map(columnBytes);
  const row = SYSTEM_ROW_BYTES + nullBytes + sizes.reduce((sum, s) => sum + s.row, 0);
  const inline = SYSTEM_INLINE_BYTES + nullBytes + sizes.reduce((sum, s) => sum + s.inline, 0);
  if (row > MAX_ROW_BYTES) {
    return [{ field, code: "row_too_large", message: `a row would need up to ${row} bytes in MySQL (at most ${MAX_ROW_BYTES}; a varchar(n) takes 4n bytes): use text for long strings` }];
  }
  if (inline > MAX_INLINE_BYTES) {
    return [{ field, code: "row_too_large", message: `a row would keep up to ${inline} bytes in its InnoDB page (at most ${MAX_INLINE_BYTES}): use fewer or shorter columns, or text for long strings` }];
  }
  return [];
};
