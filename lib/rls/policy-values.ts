// How a policy compares values: each column type belongs to a domain, and every literal, claim and record value
// is brought to that domain's one form before any comparison, so SQL (compile-policy.ts) and the feed's
// matcher (policy-match.ts) compare the same things. docs/api.md, "Policies", states the rules.
import { isRealDate, numberText, toStoredDatetime } from "../schema/value-checks";

/** number: int, bigint, decimal, float, reference, boolean (as 1/0); datetime and date as their stored text. */
export type Domain = "number" | "text" | "datetime" | "date" | "json";
/** A value in its domain's form: numbers as numbers, the rest as text. */
export type Norm = number | string;

const DOMAINS: Record<string, Domain> = {
  int: "number", bigint: "number", decimal: "number", float: "number", reference: "number", boolean: "number",
  varchar: "text", text: "text", dropdown: "text", datetime: "datetime", date: "date", json: "json",
};

export const domainOf = (type: string): Domain => DOMAINS[type] ?? "json";

// ISO 8601 with Z or an offset, or the stored form `YYYY-MM-DD HH:MM[:SS[.mmm]]` read as UTC; at most milliseconds,
// the precision rows are stored with, so no literal falls between two stored instants.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

const toInstant = (s: string): string | undefined => {
  const text = ISO_INSTANT.test(s) ? s : UTC_INSTANT.test(s) ? `${s.replace(" ", "T")}Z` : isRealDate(s) ? `${s}T00:00:00Z` : undefined;
  if (!text || !isRealDate(text.slice(0, 10))) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() > 9999 ? undefined : toStoredDatetime(d);
};

/** The value in the domain's form; undefined when it has none there (such a comparison matches nothing). */
export const toDomain = (value: unknown, domain: Domain): Norm | undefined => {
  if (typeof value === "boolean") return domain === "number" ? (value ? 1 : 0) : undefined;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    return domain === "number" ? value : domain === "text" ? String(value) : undefined;
  }
  if (typeof value !== "string") return undefined;
  switch (domain) {
    case "number":
      return numberText.test(value) ? Number(value) : undefined;
    case "text":
      return value;
    case "datetime":
      return toInstant(value);
    case "date":
      return isRealDate(value) ? value : undefined;
    default:
      return undefined;
  }
};

/** Why a literal cannot stand beside a column of this type (refused at save), or undefined when it can. */
export const literalProblem = (value: string | number | boolean, type: string, column: string): string | undefined => {
  const domain = domainOf(type);
  const fits = domain === "text" ? typeof value === "string" : toDomain(value, domain) !== undefined;
  if (fits) return undefined;
  const want: Record<Domain, string> = {
    number: type === "boolean" ? "true or false" : "a number",
    text: "a string in quotes",
    datetime: "a datetime in quotes, e.g. '2026-06-01T12:00:00Z' or '2026-06-01 12:00:00' (UTC), at most milliseconds",
    date: "a date in quotes, e.g. '2026-06-01'",
    json: "null (json columns only compare with null)",
  };
  return `${type} column "${column}" compares with ${want[domain]}`;
};

/** Byte order of UTF-8 text: what SQLite's BINARY collation and MySQL's BINARY comparison use. */
const compareText = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** -1, 0 or 1; both values in the same domain's form. */
export const compareNorm = (a: Norm, b: Norm): number =>
  typeof a === "number" && typeof b === "number" ? Math.sign(a - b) : compareText(String(a), String(b));

export const holds = (order: number, op: string): boolean => {
  switch (op) {
    case "=": return order === 0;
    case "!=": return order !== 0;
    case ">": return order > 0;
    case ">=": return order >= 0;
    case "<": return order < 0;
    default: return order <= 0;
  }
};
