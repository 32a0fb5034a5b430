// `GET /{table}/_aggregate` and `GET /{join}/_aggregate` in the data OpenAPI document.
import { MAX_AGGREGATES, MAX_GROUP } from "../api/limits";
import { TYPE_SPECS } from "../schema/column-types";
import { isNumeric } from "../schema/type-traits";
import type { ColumnDef } from "../schema/types";
import { curlSample } from "./curl-sample";
import { filterParameters } from "./list-parameters";
import { errorRefs } from "./shared-components";

type Json = Record<string, unknown>;

/** An example `_agg` for these columns: a count, and a sum and average of the first number column. */
const exampleAgg = (columns: ColumnDef[]) => {
  const number = columns.find((c) => isNumeric(c) && c.name !== "id");
  return number ? `count,sum:${number.name},avg:${number.name}` : "count";
};

/**
 * One result row: the group columns (typed as the columns, null for the NULL group) and `count` are named;
 * the other aggregates (`sum_price`, …) are named by the request, so they stay open.
 */
const aggregateRow = (columns: ColumnDef[], groupable: string[]): Json => ({
  type: "object",
  properties: {
    ...Object.fromEntries(
      columns.filter((c) => groupable.includes(c.name) && c.name !== "count").map((c) => {
        const { description: _d, ...spec } = TYPE_SPECS[c.type].openapi(c);
        return [c.name, { oneOf: [spec, { type: "null" }] }];
      }),
    ),
    count: { type: "integer", minimum: 0, description: "With the `count` aggregate (the default): the number of records in the group." },
  },
  additionalProperties: true,
});

export const aggregatePath = (
  name: string,
  columns: ColumnDef[],
  opts: { serverUrl: string; apiKey?: string; operationId: string; tag: string; errors: Parameters<typeof errorRefs>[number][] },
): Record<string, Json> => {
  const groupable = columns.filter((c) => TYPE_SPECS[c.type].sort !== "none").map((c) => c.name);
  const agg = exampleAgg(columns);
  return {
    [`/${name}/_aggregate`]: {
      get: {
        tags: [opts.tag],
        operationId: opts.operationId,
        summary: `Aggregate ${name}`,
        description:
          `Counts and totals over \`${name}\`, grouped by \`_group\`, with the same filters as the list (row policies apply: a JWT user aggregates only rows it may read). ` +
          "Each result row holds the group columns and one value per aggregate, named `count` or `{fn}_{column}` (`sum_price`). " +
          "`count` and `count_distinct` are integers, `avg` a number, `sum` of a decimal column keeps its scale, `min`/`max` take the column's JSON type. " +
          "Without `_sort` the rows come in group order (NULL first). `_select`, `_expand` and `_after` are not accepted here.",
        parameters: [
          {
            name: "_group",
            in: "query",
            required: false,
            description: `Comma-separated columns to group by (at most ${MAX_GROUP}); without it, one row over every matching record.`,
            style: "form",
            explode: false,
            schema: { type: "array", maxItems: MAX_GROUP, items: { type: "string", enum: groupable } },
          },
          {
            name: "_agg",
            in: "query",
            required: false,
            description:
              `Comma-separated aggregates (default \`count\`, at most ${MAX_AGGREGATES}): \`count\`, \`sum:col\`, \`avg:col\` (number columns), \`min:col\`, \`max:col\`, \`count_distinct:col\`.`,
            example: agg,
            schema: { type: "string", pattern: "^[a-z_]+(:[a-z][a-z0-9_]*)?(,[a-z_]+(:[a-z][a-z0-9_]*)?)*$" },
          },
          {
            name: "_sort",
            in: "query",
            required: false,
            description: "Comma-separated group or aggregate names (e.g. `-count`); a leading `-` sorts descending.",
            schema: { type: "string" },
          },
          { $ref: "#/components/parameters/Limit" },
          { $ref: "#/components/parameters/Offset" },
          ...filterParameters(columns),
        ],
        responses: {
          "200": {
            description: "One object per group.",
            content: {
              "application/json": {
                schema: { type: "array", items: aggregateRow(columns, groupable) },
                example: [{ ...(groupable[1] ? { [groupable[1]]: "…" } : {}), count: 3 }],
              },
            },
          },
          ...errorRefs(...opts.errors, "ValidationFailed"),
        },
        "x-codeSamples": curlSample("get", `${opts.serverUrl}/${name}/_aggregate`, { apiKey: opts.apiKey }),
      },
    },
  };
};
