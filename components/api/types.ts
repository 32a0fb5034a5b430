import type { ColumnDef, ColumnType } from "@/lib/schema/types";

export type { ColumnType };

/** A column as the management API returns it: its definition plus the MySQL type it maps to. */
export type Column = Omit<ColumnDef, "system"> & { mysql_type: string };

export type Table = { name: string; columns: Column[]; automatic_columns: string[] };

export type DatabaseSummary = {
  instance: string;
  name: string;
  owner_id: number;
  api_base: string;
  table_count: number;
  created_at: string;
  updated_at: string;
};

export type Database = Omit<DatabaseSummary, "table_count"> & { tables: Table[] };

export type ApiKey = { id: number; name: string; key: string; database: string | null; created_at: string };

export type Account = { id: number; email: string; is_operator: boolean; created_at: string };

export type SignupMode = "open" | "operator";

export type SignupStatus = { has_accounts: boolean; first_run: boolean; signup: SignupMode };

/** A record of the data API: id, the user's columns, created_at, updated_at. */
export type DataRecord = Record<string, unknown> & { id: number };

/** A column object as the management API accepts it (POST/PATCH columns, quick create). */
export type ColumnInput = {
  name: string;
  type: ColumnType;
  nullable?: boolean;
  unique?: boolean;
  default?: unknown;
  length?: number;
  precision?: number;
  scale?: number;
  options?: string[];
  references?: string;
};

/** A join definition as the management API stores and returns it. */
export type JoinDefinition = {
  base: string;
  joins: { table: string; on: [string, string][] }[];
  columns: { column: string; as: string }[];
};

export type Join = JoinDefinition & { name: string; sql?: string; path: string };

export type JoinPreview = JoinDefinition & { rows: Record<string, unknown>[] };
