// Indexed substring search (`searchable` text columns). On SQLite each such column has an FTS5 table with the
// trigram tokenizer, kept in step by triggers (lib/ddl/sync-search.ts); `_like` and `_ilike` ask it for candidate
// rows and recheck them with the scan's own predicate (lib/api/build-sql.ts). MariaDB stores the option and scans.
import { isTextual } from "./type-traits";
import { COLUMN_TYPES, type ColumnType } from "./types";

/** Types a column must have to be searchable. */
export const SEARCHABLE_TYPES: readonly ColumnType[] = COLUMN_TYPES.filter(isTextual);

/** A trigram index finds nothing for fewer characters (code points), so shorter values scan. */
export const SEARCH_MIN_CHARS = 3;

/** Every name this feature gives a table's SQLite objects starts so; user names cannot start with "_". */
export const searchPrefix = (tableId: number) => `_tabula_search_${tableId}_`;

/**
 * The FTS5 table of one column, by table id (so a table rename keeps it). The trailing "_" keeps it apart from
 * FTS5's shadow tables (`…_data`, `…_idx`…) and from the column's triggers (`…_ins`, `…_del`, `…_upd`).
 */
export const searchTableName = (tableId: number, column: string) => `${searchPrefix(tableId)}${column}_`;
