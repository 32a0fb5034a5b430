// The data API's enforced limits, as the OpenAPI documents publish them: each value comes from the constant the
// parser checks against (lib/api/limits.ts), so changing a limit changes its documentation. No database needed.
import { describe, expect, it } from "vitest";
import * as LIMITS from "../../lib/api/limits";
import type { LoadedDatabase } from "../../lib/meta/schema-cache";
import { buildManagementOpenApi } from "../../lib/openapi/management-openapi";
import { buildOpenApi } from "../../lib/openapi/build-openapi";
import type { ColumnDef, DatabaseSchema, TableDef } from "../../lib/schema/types";

type Doc = Record<string, any>;

const col = (name: string, type: ColumnDef["type"], extra: Partial<ColumnDef> = {}): ColumnDef => ({ name, type, nullable: true, unique: false, ...extra });

const authors: TableDef = { id: 1, name: "authors", columns: [col("name", "varchar")] };
const books: TableDef = { id: 2, name: "books", columns: [col("title", "varchar"), col("price", "int"), col("author_id", "reference", { references: "authors" })] };
const schema: DatabaseSchema = {
  id: 1, instance: "shop_7k2m9x", name: "Shop", ownerId: 1, engine: "sqlite", physical: "shop_7k2m9x.sqlite", version: 1,
  tables: new Map([[authors.name, authors], [books.name, books]]),
  joins: new Map(),
};
const database = { schema, auth: undefined, hooks: new Map(), shared: false, requestsPerSecond: null } as unknown as LoadedDatabase;
const doc = buildOpenApi(database, { serverUrl: "http://tabula.test/v1/shop_7k2m9x" }) as Doc;
const management = buildManagementOpenApi("http://tabula.test/api/v1") as Doc;

const param = (op: Doc, name: string) => {
  const found = (op.parameters as Doc[]).find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name}`);
  return found;
};

describe("data API limits in the OpenAPI documents", () => {
  it.each([
    ["_limit maximum", () => doc.components.parameters.Limit.schema.maximum, LIMITS.MAX_LIMIT],
    ["_limit default", () => doc.components.parameters.Limit.schema.default, LIMITS.DEFAULT_LIMIT],
    ["_expand maxItems", () => param(doc.paths["/books"].get, "_expand").schema.maxItems, LIMITS.MAX_EXPAND],
    ["_group maxItems", () => param(doc.paths["/books/_aggregate"].get, "_group").schema.maxItems, LIMITS.MAX_GROUP],
    ["_or maxItems", () => doc.components.parameters.Or.schema.maxItems, LIMITS.MAX_OR_GROUPS],
    ["bulk create maxItems", () => doc.paths["/books/_bulk"].post.requestBody.content["application/json"].schema.maxItems, LIMITS.MAX_BULK_ROWS],
    ["PATCH by filter: affected maximum", () => doc.paths["/books"].patch.responses["200"].content["application/json"].schema.oneOf[0].properties.affected.maximum, LIMITS.MAX_FILTER_ROWS],
    ["DELETE by filter: affected maximum", () => doc.paths["/books"].delete.responses["200"].content["application/json"].schema.oneOf[0].properties.affected.maximum, LIMITS.MAX_FILTER_ROWS],
  ])("%s equals the enforced constant", (_where, published, constant) => {
    expect(published()).toBe(constant);
  });

  it.each([
    ["_limit", () => doc.components.parameters.Limit.description, `1 to ${LIMITS.MAX_LIMIT}`],
    ["_expand", () => param(doc.paths["/books"].get, "_expand").description, `at most ${LIMITS.MAX_EXPAND}`],
    ["_group", () => param(doc.paths["/books/_aggregate"].get, "_group").description, `at most ${LIMITS.MAX_GROUP}`],
    ["_agg", () => param(doc.paths["/books/_aggregate"].get, "_agg").description, `at most ${LIMITS.MAX_AGGREGATES}`],
    ["_or", () => doc.components.parameters.Or.description, `at most ${LIMITS.MAX_OR_GROUPS}, each of at most ${LIMITS.MAX_OR_FILTERS} filters`],
    ["bulk create", () => doc.paths["/books/_bulk"].post.description, `up to ${LIMITS.MAX_BULK_ROWS} records from a JSON array`],
    ["the document's lists", () => doc.info.description, `\`_limit\` (1 to ${LIMITS.MAX_LIMIT}, default ${LIMITS.DEFAULT_LIMIT})`],
    ["the document's bulk writes", () => doc.info.description, `takes an array (up to ${LIMITS.MAX_BULK_ROWS}, all or nothing)`],
    ["the document's writes by filter", () => doc.info.description, `at most ${LIMITS.MAX_FILTER_ROWS.toLocaleString("en-US")} records`],
    ["the document's 413", () => doc.info.description, `413 body over ${LIMITS.mebibytes(LIMITS.MAX_BODY_BYTES)}`],
    ["the data 413 response", () => doc.components.responses.PayloadTooLarge.description, LIMITS.mebibytes(LIMITS.MAX_BODY_BYTES)],
    ["the management 413 response", () => management.components.responses.PayloadTooLarge.description, LIMITS.mebibytes(LIMITS.MAX_BODY_BYTES)],
  ])("%s: the description states the enforced constant", (_where, text, expected) => {
    expect(text()).toContain(expected);
  });

  it("words the body limit as the bytes the adapters count", () => {
    expect(LIMITS.mebibytes(LIMITS.MAX_BODY_BYTES)).toBe(`${LIMITS.MAX_BODY_BYTES / 1_048_576} MiB`);
  });
});
