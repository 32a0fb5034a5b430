import { randomBytes } from "node:crypto";
import type { FieldError } from "../errors";

export const NAME_RE = /^[a-z][a-z0-9_]{0,62}$/;

/** Path segments and words the data API gives a meaning of its own. */
const RESERVED_TABLE_NAMES = new Set(["auth", "openapi", "openapi_json", "docs", "rpc", "api", "v1", "mcp"]);
const AUTO_COLUMN_NAMES = new Set(["id", "created_at", "updated_at"]);

/** SQLite keeps `sqlite_` names for itself; refused on both engines so a schema moves between them. */
const RESERVED_PREFIX = "sqlite_";

const nameProblem = (name: unknown, what: string): string | undefined => {
  if (typeof name !== "string" || name.length === 0) return `${what} name is required`;
  if (!NAME_RE.test(name)) {
    // This also refuses names starting with `_`, which the data API keeps for its parameters (_sort, _limit).
    return `${what} name must start with a lowercase letter and use only a-z, 0-9 and _ (at most 63 characters); got ${JSON.stringify(name)}`;
  }
  return undefined;
};

const reservedPrefix = (name: unknown, what: string, field: string): FieldError | undefined =>
  typeof name === "string" && name.startsWith(RESERVED_PREFIX)
    ? { field, code: "reserved_name", message: `${what} names starting with "${RESERVED_PREFIX}" are reserved (SQLite keeps them for itself)` }
    : undefined;

export const checkTableName = (name: unknown, field = "name"): FieldError | undefined => {
  const problem = nameProblem(name, "table");
  if (problem) return { field, code: "invalid_name", message: problem };
  const reserved = reservedPrefix(name, "table", field);
  if (reserved) return reserved;
  if (RESERVED_TABLE_NAMES.has(name as string)) {
    return { field, code: "reserved_name", message: `"${name}" is reserved by the data API; choose another table name` };
  }
  return undefined;
};

export const checkColumnName = (name: unknown, field = "name"): FieldError | undefined => {
  const problem = nameProblem(name, "column");
  if (problem) return { field, code: "invalid_name", message: problem };
  const reserved = reservedPrefix(name, "column", field);
  if (reserved) return reserved;
  if (AUTO_COLUMN_NAMES.has(name as string)) {
    return { field, code: "reserved_name", message: `"${name}" is an automatic column on every table` };
  }
  return undefined;
};

const SUFFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** `shop_7k2m9x` from "My Shop!": a lowercase slug of the display name plus a random suffix. */
export const makeInstanceName = (displayName: string): string => {
  let slug = displayName
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+|_+$/g, "")
    .slice(0, 40)
    .replace(/_+$/g, "");
  if (slug.length < 2) slug = `db${slug}`;
  const bytes = randomBytes(6);
  const suffix = [...bytes].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join("");
  return `${slug}_${suffix}`;
};

export const INSTANCE_RE = /^[a-z][a-z0-9_]{2,62}$/;
