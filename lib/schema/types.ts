import type { EngineKind } from "../config";

export const COLUMN_TYPES = [
  "varchar",
  "text",
  "int",
  "bigint",
  "decimal",
  "float",
  "boolean",
  "date",
  "datetime",
  "json",
  "password",
  "dropdown",
  "reference",
] as const;

export type ColumnType = (typeof COLUMN_TYPES)[number];

/** A column as stored in the metadata and described by the management API. */
export type ColumnDef = {
  name: string;
  type: ColumnType;
  nullable: boolean;
  unique: boolean;
  /** JSON value used when an insert omits the column; undefined = no default. */
  default?: unknown;
  length?: number;
  precision?: number;
  scale?: number;
  options?: string[];
  references?: string;
  /** Automatic columns (id, created_at, updated_at): never written by clients. */
  system?: boolean;
};

export type TableDef = {
  id: number;
  name: string;
  /** User-defined columns in display order (automatic columns excluded). */
  columns: ColumnDef[];
};

export type DatabaseSchema = {
  id: number;
  instance: string;
  name: string;
  ownerId: number;
  engine: EngineKind;
  /** MySQL schema name, or SQLite file path. */
  physical: string;
  version: number;
  tables: Map<string, TableDef>;
};

export const AUTO_COLUMNS: readonly ColumnDef[] = [
  { name: "id", type: "bigint", nullable: false, unique: true, system: true },
  { name: "created_at", type: "datetime", nullable: false, unique: false, system: true },
  { name: "updated_at", type: "datetime", nullable: false, unique: false, system: true },
];

/** Every column of a record in output order: id, user columns, created_at, updated_at. */
export const recordColumns = (table: TableDef): ColumnDef[] => [
  AUTO_COLUMNS[0],
  ...table.columns,
  AUTO_COLUMNS[1],
  AUTO_COLUMNS[2],
];
