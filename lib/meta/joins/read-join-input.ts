import { ApiError, conflict, invalidField, validationFailed } from "../../errors";
import { type JoinSpec, parseJoinDefinition } from "../../joins/parse-join-definition";
import { parseJoinSql } from "../../joins/parse-join-sql";
import type { DatabaseSchema } from "../../schema/types";

const EXAMPLE = `{"name": "books_with_authors", "sql": "SELECT b.title, a.name AS author FROM books b JOIN authors a ON b.author_id = a.id"}`;

/** A create/replace body in either form, `{name, sql}` or `{name, base, joins, columns}`, checked against the schema. */
export const readJoinInput = (input: unknown, schema: DatabaseSchema): JoinSpec => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalidField("body", "invalid_type", `the body must be a JSON object like ${EXAMPLE}`);
  }
  const body = input as Record<string, unknown>;
  if (body.sql === undefined || body.sql === null) {
    const { sql: _sql, ...structured } = body;
    return parseJoinDefinition(structured, schema);
  }
  const mixed = Object.keys(body).filter((k) => k !== "name" && k !== "sql");
  if (mixed.length) throw invalidField(mixed[0], "mixed_forms", `send either "sql" or the structured form (base, joins, columns), not both`);
  const structured = parseJoinSql(body.sql, schema);
  try {
    return { ...parseJoinDefinition({ name: body.name, ...structured }, schema), sql: body.sql as string };
  } catch (err) {
    // Problems found in the structure (e.g. keys that cannot be compared) belong to the SQL the user wrote.
    if (!(err instanceof ApiError) || !err.errors) throw err;
    throw validationFailed(err.errors.map((e) => (e.field === "name" ? e : { ...e, field: "sql", message: `${e.message} (${e.field})` })));
  }
};

/** Tables and joins share one namespace: `/v1/{db}/{name}` must mean one thing. */
export const checkNameFree = (schema: DatabaseSchema, name: string, own?: string) => {
  if (name === own) return;
  if (schema.tables.has(name)) throw conflict(`"${name}" is already a table in database "${schema.instance}"; tables and joins share names.`);
  if (schema.joins?.has(name)) throw conflict(`Join "${name}" already exists in database "${schema.instance}".`);
};
