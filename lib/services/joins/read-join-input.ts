import type { z } from "zod";
import { ApiError, conflict, invalidField, validationFailed } from "../../errors";
import { type JoinSpec, parseJoinDefinition } from "../../joins/parse-join-definition";
import { parseJoinSql } from "../../joins/parse-join-sql";
import { parseWith } from "../../contract/parse-input";
import { type JoinPatch, JoinStructure } from "../../contract/schemas/joins";
import type { DatabaseSchema } from "../../schema/types";

/** A definition in either form, as parsed from a create, patch (merged onto the join) or preview body. */
export type JoinBody = z.output<typeof JoinPatch> & { name: string };

/** A create/replace body in either form, `{name, sql}` or `{name, base, joins, columns}`, checked against the schema. */
export const readJoinInput = async (body: JoinBody, schema: DatabaseSchema): Promise<JoinSpec> => {
  if (body.sql === undefined || body.sql === null) {
    const { sql: _sql, ...structured } = body;
    return parseJoinDefinition(parseWith(JoinStructure, structured), schema);
  }
  const mixed = Object.keys(body).filter((k) => k !== "name" && k !== "sql");
  if (mixed.length) throw invalidField(mixed[0], "mixed_forms", `send either "sql" or the structured form (base, joins, columns), not both`);
  const structured = await parseJoinSql(body.sql, schema);
  try {
    return { ...parseJoinDefinition(parseWith(JoinStructure, { name: body.name, ...structured }), schema), sql: body.sql };
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
