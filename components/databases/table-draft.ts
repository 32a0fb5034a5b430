import { type ColumnDraft, draftKey, newColumnDraft, toColumnInput } from "../schema/column-draft";

export type TableDraft = { key: string; name: string; columns: ColumnDraft[] };

export const newTableDraft = (name = ""): TableDraft => ({ key: draftKey(), name, columns: [newColumnDraft()] });

export const toTableInput = (t: TableDraft) => ({ name: t.name.trim(), columns: t.columns.map(toColumnInput) });

export const countColumns = (tables: TableDraft[]) => tables.reduce((n, t) => n + t.columns.length, 0);
