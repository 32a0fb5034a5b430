import { z } from "zod";
import { SQL_MAX_LENGTH } from "../../sql-console/check-console-sql";
import { CONSOLE_LIMITS } from "../../sql-console/console-limits";
import { component } from "./common";

export const SqlInput = component(
  "SqlInput",
  z
    .strictObject({
      sql: z.string().min(1).max(SQL_MAX_LENGTH).meta({ description: "One SELECT (or WITH … SELECT) over this database's tables; a trailing `;` is fine." }),
    })
    .meta({ example: { sql: "SELECT title, price FROM books WHERE price > 10 ORDER BY price DESC" } }),
);

export const SqlResult = component(
  "SqlResult",
  z
    .object({
      columns: z.array(z.string()).meta({ description: "Column names in the order of each row's cells (names may repeat)." }),
      column_types: z
        .array(z.string().nullable())
        .meta({ description: "Each column's type as the engine names it, in the order of `columns`: MariaDB's result type (`BIGINT`, `DECIMAL`, `DATETIME`, `VARCHAR`, …); SQLite's declared type of a column read straight from a table, null for an expression." }),
      rows: z.array(z.array(z.unknown())).meta({ description: `At most ${CONSOLE_LIMITS.maxRows} rows, each an array of cells; binary cells as \`\\x\` and hex.` }),
      truncated: z.boolean().meta({ description: `True when rows were left out: the query had more than ${CONSOLE_LIMITS.maxRows} rows, or more than ${CONSOLE_LIMITS.maxBytes / 1024 / 1024} MiB of them as JSON.` }),
      truncated_reason: z.enum(["rows", "bytes"]).optional().meta({ description: `With \`truncated\`: \`rows\` (past ${CONSOLE_LIMITS.maxRows} rows) or \`bytes\` (the next row would pass ${CONSOLE_LIMITS.maxBytes / 1024 / 1024} MiB of JSON cells).` }),
      ms: z.int().meta({ description: "Milliseconds the statement took on the engine." }),
    })
    .meta({ example: { columns: ["title", "price"], column_types: ["VARCHAR", "DECIMAL"], rows: [["Kindred", 17.5]], truncated: false, ms: 3 } }),
);

export type SqlResult = z.output<typeof SqlResult>;
