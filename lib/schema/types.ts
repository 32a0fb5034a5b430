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
  /** A (non-unique) index on the column; always true for a reference. A unique column is indexed by its constraint. */
  index?: boolean;
  /** A trigram index for `_like`/`_ilike` (varchar and text; SQLite builds it, MariaDB scans): lib/schema/search.ts. */
  searchable?: boolean;
  /** Automatic columns (id, created_at, updated_at): never written by clients. */
  system?: boolean;
};

/** An index over two or more columns of one table, in this order; `name` is unique per table. */
export type IndexDef = { name: string; columns: string[]; unique: boolean };

/** A column default that fills in the JWT user's id on insert (owner columns). */
export const AUTH_ID_DEFAULT = "auth.id";

export type PolicyAction = "select" | "insert" | "update" | "delete";

/** Row policy text per action; absent or null = the action is denied to JWT users. */
export type TablePolicies = Partial<Record<PolicyAction, string | null>>;

export type TableDef = {
  id: number;
  name: string;
  /** User-defined columns in display order (automatic columns excluded). */
  columns: ColumnDef[];
  /** Indexes over several columns (lib/schema/indexes.ts); absent = none. */
  indexes?: IndexDef[];
  /** Row Level Security policies (database auth); absent = none. */
  policies?: TablePolicies;
};

/** Database auth settings as the management API shows them (docs/api.md, "Database auth"). */
export type AuthSettings = {
  enabled: boolean;
  users_table: string;
  login_column: string;
  password_column: string;
  token_ttl_seconds: number;
  signup: boolean;
  cors_origins: string[];
  /** The column mails go to; null: the login column. */
  email_column: string | null;
  verification: "off" | "required";
  /** Where mailed links and OAuth may send users. */
  redirect_urls: string[];
  providers: { id: "google" | "github" | "oidc"; name?: string; client_id: string; client_secret: string; issuer?: string }[];
  mfa: "off" | "optional" | "required";
  refresh_ttl_seconds: number;
  emails: { from?: string; verify?: AuthMailTemplate; reset?: AuthMailTemplate; otp?: AuthMailTemplate };
};

/** One mail of database auth: `{{link}}`, `{{code}}` and `{{app}}` are filled in. */
export type AuthMailTemplate = { subject: string; text: string; html?: string };

/** Database auth settings with the decrypted HS256 signing secret, as the data path uses them. */
export type DatabaseAuth = AuthSettings & { secret: Uint8Array };

/**
 * What one database is: its tables, joins, policies and indexes, with its identity and version. What is stored
 * or decided beside it (auth, hooks, the owner's plan) is in its LoadedDatabase (lib/meta/schema-cache.ts).
 */
export type DatabaseSchema = {
  id: number;
  instance: string;
  name: string;
  ownerId: number;
  /** Who created it (the owner or a member of the owner's workspace). */
  creatorId?: number;
  engine: EngineKind;
  /** MySQL schema name, or SQLite file path. */
  physical: string;
  version: number;
  tables: Map<string, TableDef>;
  /** Joins by name; they share one namespace with the tables. */
  joins?: Map<string, JoinDef>;
};

/** A column reference inside a join definition: "table.column". */
export type JoinColumnRef = string;

/** A stored join: the base table, inner-joined tables with their key pairs, and the output columns. */
export type JoinDef = {
  id: number;
  name: string;
  base: string;
  /** `type: "left"` keeps base rows without a match (their columns null); absent = inner, the default. */
  joins: { table: string; on: [JoinColumnRef, JoinColumnRef][]; type?: "left" }[];
  columns: { column: JoinColumnRef; as: string }[];
  /** The SELECT it was made from in SQL mode (kept beside the structured form). */
  sql?: string;
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
