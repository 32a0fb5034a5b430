// Building blocks of the management API's zod schemas. No database imports: the dashboard takes its types
// from these modules (z.infer / z.input), and tests/layering.test.ts keeps it away from lib/db.
import { z } from "zod";
import { checkColumnName, checkTableName, NAME_RE } from "../../schema/names";

/** The component schemas of the management OpenAPI document, each under its `id`. */
export const COMPONENTS = z.registry<{ id: string }>();

/** Registers a schema as a named component (the OpenAPI document refers to it with $ref). */
export const component = <T extends z.ZodType>(id: string, schema: T): T => {
  COMPONENTS.add(schema, { id });
  return schema;
};

type Problem = { code: string; message: string } | undefined;

/** A check that reports the lib/schema validators' own code and message (invalid_name, reserved_name). */
export const rule =
  <T>(problem: (value: T) => Problem) =>
  (payload: z.core.ParsePayload<T>) => {
    const found = problem(payload.value);
    if (found) payload.issues.push({ code: "custom", message: found.message, input: payload.value, params: { code: found.code } });
  };

/** A rule over a whole object: each problem becomes an issue on its own path, with the rule's code and message. */
export const problemsOf =
  <T>(find: (value: T) => { path: (string | number)[]; code: string; message: string }[]) =>
  (value: T, ctx: z.RefinementCtx) => {
    for (const p of find(value)) ctx.addIssue({ code: "custom", path: p.path, message: p.message, params: { code: p.code }, input: value });
  };

const ID_RE = /^[1-9]\d{0,15}$/;

/** A row id written as text (a path segment, a query parameter): digits, no leading zero, a safe integer; parsed to a number. */
export const idText = (code: string, message: string) =>
  z
    .string()
    .check(rule((v: string) => (ID_RE.test(v) && Number.isSafeInteger(Number(v)) ? undefined : { code, message })))
    .pipe(z.transform(Number))
    .pipe(z.int().min(1));

const NOT_A_WORKSPACE = { code: "invalid_value", message: "workspace must be the owner's account id" };

/** `?workspace=<owner's account id>`: the workspace a workspace route acts in (authorize checks the caller's role there). */
export const WorkspaceParam = (description: string) => idText(NOT_A_WORKSPACE.code, NOT_A_WORKSPACE.message).optional().meta({ description, pattern: ID_RE.source });

/** The body's `workspace`, refused in the same words as the query's (its schema is published as an integer from 1). */
export const WorkspaceField = (description: string) =>
  z
    .unknown()
    .check(rule((v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 1 ? undefined : NOT_A_WORKSPACE)))
    .transform((v) => v as number)
    .optional()
    .meta({ type: "integer", minimum: 1, description });

const NAME_PATTERN = NAME_RE.source;

export const TableName = z
  .string()
  .check(rule((v: string) => checkTableName(v)))
  .meta({ pattern: NAME_PATTERN, description: "Lowercase: a-z, 0-9 and _, starting with a letter; some names are reserved." });

export const ColumnName = z
  .string()
  .check(rule((v: string) => checkColumnName(v)))
  .meta({ pattern: NAME_PATTERN, description: "Lowercase; `id`, `created_at` and `updated_at` are automatic." });

/** The name of an existing table: whether it exists is the service's check (422 unknown_table). */
export const TableRef = z.string().meta({ description: "The name of a table of this database." });

export const Timestamp = z.string().meta({ format: "date-time", example: "2024-05-01T12:00:00.000Z" });

/** A row as JSON (a join's output row has no id of its own). */
export const DataRecord = z.record(z.string(), z.unknown());

/** A record of one table: always its id, then its columns. */
export const TableRecord = z.looseObject({ id: z.int() });

export const INSTANCE_EXAMPLE = "shop_7k2m9x";
