// Component schemas of the management API: columns, tables, databases and secret keys.
import { COLUMN_TYPES } from "../schema/types";

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const NAME = { type: "string", pattern: "^[a-z][a-z0-9_]{0,62}$" };
const TIME = { type: "string", format: "date-time" };

const COLUMN_PROPERTIES: Json = {
  name: { ...NAME, description: "Lowercase; `id`, `created_at` and `updated_at` are automatic." },
  type: { type: "string", enum: [...COLUMN_TYPES] },
  nullable: { type: "boolean", default: true },
  unique: { type: "boolean", default: false },
  default: { description: "Value used when an insert omits the column; any JSON value valid for the type." },
  length: { type: "integer", minimum: 1, maximum: 16383, description: "varchar only; default 255." },
  precision: { type: "integer", minimum: 1, maximum: 65, description: "decimal only; default 10." },
  scale: { type: "integer", minimum: 0, maximum: 30, description: "decimal only; default 2." },
  options: {
    type: "array",
    description: "dropdown only: the allowed values.",
    minItems: 1,
    maxItems: 255,
    items: { type: "string", minLength: 1, maxLength: 255 },
  },
  references: { ...NAME, description: "reference only: the table whose `id` this column holds." },
};

const COLUMN_EXAMPLE = { name: "price", type: "decimal", precision: 10, scale: 2, nullable: false };
const COLUMN_VIEW_EXAMPLE = { ...COLUMN_EXAMPLE, unique: false, mysql_type: "DECIMAL(10,2)" };
const TABLE_EXAMPLE = { name: "products", columns: [COLUMN_VIEW_EXAMPLE], automatic_columns: ["id", "created_at", "updated_at"] };
const KEY_EXAMPLE = { id: 7, name: "server", key: "sk_4mQ2yZ8c1vR0pLkT9wXn3bJ6hF5sD7aE2uK8oN1iG0c", database: "shop_7k2m9x", created_at: "2024-05-01T12:00:00.000Z" };

export const MANAGEMENT_EXAMPLES = {
  column: COLUMN_EXAMPLE,
  table: { name: "products", columns: [COLUMN_EXAMPLE] },
  database: { name: "Shop", tables: [{ name: "products", columns: [COLUMN_EXAMPLE] }] },
  key: { name: "server", database: "shop_7k2m9x" },
};

export const MANAGEMENT_SCHEMAS: Record<string, Json> = {
  ColumnInput: {
    type: "object",
    description: "A column definition.",
    properties: COLUMN_PROPERTIES,
    required: ["name", "type"],
    additionalProperties: false,
    example: COLUMN_EXAMPLE,
  },
  ColumnPatch: {
    type: "object",
    description: "Only the properties to change (name, type, options...); `default: null` removes the default. A lossy change is a 422.",
    properties: COLUMN_PROPERTIES,
    additionalProperties: false,
    example: { name: "unit_price" },
  },
  Column: {
    type: "object",
    description: "A column as stored, with the MySQL type it maps to.",
    properties: { ...COLUMN_PROPERTIES, mysql_type: { type: "string", example: "DECIMAL(10,2)" } },
    required: ["name", "type", "nullable", "unique", "mysql_type"],
    example: COLUMN_VIEW_EXAMPLE,
  },
  TableInput: {
    type: "object",
    properties: { name: NAME, columns: { type: "array", items: ref("ColumnInput") } },
    required: ["name"],
    additionalProperties: false,
    example: MANAGEMENT_EXAMPLES.table,
  },
  TableRename: {
    type: "object",
    properties: { name: NAME },
    required: ["name"],
    additionalProperties: false,
    example: { name: "items" },
  },
  Table: {
    type: "object",
    properties: {
      name: NAME,
      columns: { type: "array", items: ref("Column") },
      automatic_columns: { type: "array", items: { type: "string" }, description: "Always `id`, `created_at`, `updated_at`." },
    },
    required: ["name", "columns", "automatic_columns"],
    example: TABLE_EXAMPLE,
  },
  DatabaseCreate: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: 80, description: "Display name; the instance is derived from it." },
      tables: { type: "array", items: ref("TableInput"), description: "Quick create: every table in one step, all or nothing." },
    },
    required: ["name"],
    additionalProperties: false,
    example: MANAGEMENT_EXAMPLES.database,
  },
  DatabasePatch: {
    type: "object",
    properties: { name: { type: "string", minLength: 1, maxLength: 80 } },
    additionalProperties: false,
    example: { name: "My shop" },
  },
  Database: {
    type: "object",
    properties: {
      instance: { type: "string", pattern: "^[a-z][a-z0-9_]{2,62}$", description: "Path segment of the data API." },
      name: { type: "string" },
      owner_id: { type: "integer" },
      api_base: { type: "string", description: "Base path of the data API, `/v1/{instance}`." },
      tables: { type: "array", items: ref("Table") },
      created_at: TIME,
      updated_at: TIME,
    },
    required: ["instance", "name", "owner_id", "api_base", "tables"],
    example: {
      instance: "shop_7k2m9x",
      name: "Shop",
      owner_id: 1,
      api_base: "/v1/shop_7k2m9x",
      tables: [TABLE_EXAMPLE],
      created_at: "2024-05-01T12:00:00.000Z",
      updated_at: "2024-05-01T12:00:00.000Z",
    },
  },
  DatabaseSummary: {
    type: "object",
    description: "A database as listed: its tables are counted, not described.",
    properties: {
      instance: { type: "string" },
      name: { type: "string" },
      owner_id: { type: "integer" },
      api_base: { type: "string" },
      table_count: { type: "integer", minimum: 0 },
      created_at: TIME,
      updated_at: TIME,
    },
    required: ["instance", "name", "owner_id", "api_base", "table_count", "created_at", "updated_at"],
    example: {
      instance: "shop_7k2m9x",
      name: "Shop",
      owner_id: 1,
      api_base: "/v1/shop_7k2m9x",
      table_count: 1,
      created_at: "2024-05-01T12:00:00.000Z",
      updated_at: "2024-05-01T12:00:00.000Z",
    },
  },
  KeyCreate: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: 100, default: "API key" },
      database: { type: ["string", "null"], description: "Instance the key is limited to; omitted or null = account-wide." },
    },
    additionalProperties: false,
    example: MANAGEMENT_EXAMPLES.key,
  },
  Key: {
    type: "object",
    properties: {
      id: { type: "integer" },
      name: { type: "string" },
      key: { type: "string", description: "The secret key, `sk_...`." },
      database: { type: ["string", "null"], description: "Instance the key is limited to, or null for account-wide." },
      created_at: TIME,
    },
    required: ["id", "name", "key", "database", "created_at"],
    example: KEY_EXAMPLE,
  },
};
