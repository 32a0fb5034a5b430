// A join in the data API's OpenAPI document: one GET path whose records have the join's output columns.
import type { DatabaseSchema, JoinDef } from "../schema/types";
import type { LoadedDatabase } from "../meta/schema-cache";
import { outputColumns } from "../joins/output-columns";
import { refTable } from "../joins/join-refs";
import { curlSample } from "./curl-sample";
import { LINK_HEADER, listParameters } from "./list-parameters";
import { aggregatePath } from "./aggregate-paths";
import { dataErrors } from "./data-errors";
import { errorRefs } from "./shared-components";
import { exampleValue, outputSchema, pascalName } from "./table-schemas";

type Json = Record<string, unknown>;

const joinSchemaName = (join: JoinDef) => `${pascalName(join.name)}.JoinRecord`;

const describeJoin = (join: JoinDef) =>
  `\`${join.base}\` joined with ${join.joins.map((j) => `\`${j.table}\` (${j.type === "left" ? "left" : "inner"}) on ${j.on.map(([a, b]) => `\`${a} = ${b}\``).join(" and ")}`).join(", ")}.`;

/**
 * Output columns typed like their sources; automatic source columns keep their own type under the output name.
 * A left-joined table's columns are nullable: they are null where nothing matches.
 */
const columnsOf = (schema: DatabaseSchema, join: JoinDef) => {
  const left = new Set(join.joins.filter((j) => j.type === "left").map((j) => j.table));
  return outputColumns(schema, join).map((c, i) => ({ ...c, system: false, ...(left.has(refTable(join.columns[i].column)) ? { nullable: true } : {}) }));
};

export const joinSchemas = (schema: DatabaseSchema, join: JoinDef): Record<string, Json> => {
  const columns = columnsOf(schema, join);
  return {
    [joinSchemaName(join)]: {
      type: "object",
      description: `A record of the join \`${join.name}\`: ${describeJoin(join)}`,
      properties: Object.fromEntries(columns.map((c) => [c.name, outputSchema(c)])),
      required: columns.map((c) => c.name),
      example: Object.fromEntries(columns.map((c) => [c.name, exampleValue(c)])),
    },
  };
};

export const joinPaths = (database: LoadedDatabase, join: JoinDef, opts: { serverUrl: string; apiKey?: string }): Record<string, Json> => {
  const columns = columnsOf(database.schema, join);
  const url = `${opts.serverUrl}/${join.name}`;
  const name = joinSchemaName(join);
  return {
    [`/${join.name}`]: {
      get: {
        tags: [join.name],
        operationId: `list${pascalName(join.name)}Join`,
        summary: `List ${join.name} (join)`,
        description: `Read-only join: ${describeJoin(join)} Rows without a match in an inner-joined table are left out; a left-joined table's columns are null where nothing matches. Filters and \`_sort\` name the output columns; without \`_sort\` the order is the base table's id. Other verbs answer 405 and there is no \`/{id}\`.`,
        parameters: listParameters(undefined, columns),
        responses: {
          "200": {
            description: "The matching joined records (`[]` when none match).",
            headers: {
              Link: LINK_HEADER,
              "X-Total-Count": {
                description: "Number of matching records ignoring `_limit`/`_offset`; only with `Prefer: count=exact`.",
                schema: { type: "integer", minimum: 0 },
              },
            },
            content: { "application/json": { schema: { type: "array", items: { $ref: `#/components/schemas/${name}` } } } },
          },
          ...errorRefs(...dataErrors(database).read, "ValidationFailed"),
        },
        "x-codeSamples": curlSample("get", url, { apiKey: opts.apiKey }),
      },
    },
    ...aggregatePath(join.name, columns, { ...opts, operationId: `aggregate${pascalName(join.name)}Join`, tag: join.name, errors: dataErrors(database).read }),
  };
};
