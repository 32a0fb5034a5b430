import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { type Access, visibleRows } from "../rls/access";
import type { ColumnDef, DatabaseSchema } from "../schema/types";
import { selectByIdsSql } from "./build-sql";
import { indexTableForUsers, toRecord } from "./table-index";

type Row = Record<string, unknown>;

/**
 * `_expand`: one query per reference column for the whole page (never one per row), read with the referenced
 * table's select policy for the caller; a missing or hidden row expands to null. Password columns never appear,
 * whoever asks: an expansion is a view of another table, not a read of it.
 */
export const expandRecords = async (udb: UserDb, schema: DatabaseSchema, records: Row[], rows: Row[], expand: ColumnDef[], access: Access) => {
  for (const record of records) record.expand = {};
  for (const column of expand) {
    const table = schema.tables.get(column.references!);
    const ids = [...new Set(rows.map((r) => r[column.name]).filter((v) => v !== null && v !== undefined).map(Number))];
    const visible = table ? visibleRows(access, table.name) : "none";
    const found = new Map<number, Row>();
    if (table && ids.length && visible !== "none") {
      const index = indexTableForUsers(table);
      for (const row of await scanRows(udb, selectByIdsSql(udb, table.name, index.all, ids, visible))) {
        const r = row as Row;
        found.set(Number(r.id), toRecord(index, r));
      }
    }
    rows.forEach((row, i) => {
      const id = row[column.name];
      (records[i].expand as Row)[column.name] = id === null || id === undefined ? null : (found.get(Number(id)) ?? null);
    });
  }
};
