// The grid's quick search, in the data API's own grammar: one `_or` group of `_ilike` filters over the text
// columns (never a password, at most the 20 filters a group holds), sent beside the builder's filters; and the
// document Swagger UI is handed, restated from OpenAPI 3.1 as 3.0 without changing what it says.
import { describe, expect, it } from "vitest";
import type { Column } from "../../components/api/types";
import { buildQueryString, EMPTY_QUERY } from "../../components/data/build-query";
import { searchColumns, searchGroup } from "../../components/data/quick-search";
import { openApiForSwagger } from "../../components/docs/openapi-for-swagger.js";

const column = (name: string, type: Column["type"]) => ({ name, type, nullable: true }) as Column;

describe("quick search", () => {
  it("searches the text columns, never a password, a number or a date", () => {
    const table = { columns: [column("title", "varchar"), column("body", "text"), column("price", "int"), column("pin", "password"), column("on_day", "date")] };
    expect(searchColumns(table)).toEqual(["title", "body"]);
  });

  it("holds at most the 20 filters one OR group may carry", () => {
    const table = { columns: Array.from({ length: 25 }, (_, i) => column(`c${i}`, "varchar")) };
    expect(searchColumns(table)).toHaveLength(20);
  });

  it("is one _or group of _ilike filters, beside the builder's filters and before the sort", () => {
    const query = { ...EMPTY_QUERY, filters: [{ key: "a", column: "price", op: "gte" as const, value: "3" }], sorts: [{ column: "price", desc: true }], search: searchGroup("  Falcon & co ", ["title", "body"]) };
    const text = buildQueryString(query);
    expect(text).toBe(`price_gte=3&_or=${encodeURIComponent("title_ilike=Falcon%20%26%20co&body_ilike=Falcon%20%26%20co")}&_sort=-price&_limit=25&_offset=0`);
    expect(new URLSearchParams(new URLSearchParams(text).get("_or")!).get("title_ilike")).toBe("Falcon & co");
  });

  it("sends nothing for an empty term or a table without text columns", () => {
    expect(searchGroup("   ", ["title"])).toBeUndefined();
    expect(searchGroup("x", [])).toBeUndefined();
    expect(buildQueryString({ ...EMPTY_QUERY, search: undefined })).toBe("_limit=25&_offset=0");
  });
});

describe("openApiForSwagger", () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "t" },
    webhooks: {},
    paths: {
      "/books": {
        get: {
          parameters: [{ name: "type", in: "query", schema: { type: ["string", "null"] }, examples: { a: { value: "x" } } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Book" }, examples: { one: { value: { type: "a" } } } } } } },
        },
      },
    },
    components: {
      schemas: {
        Book: {
          type: "object",
          properties: { type: { type: "string" }, price: { type: ["number", "null"], examples: [9.5] }, kind: { const: "book" }, tags: { type: "array", items: { type: ["integer", "null"] } }, any: { type: ["string", "integer"] } },
        },
      },
    },
  };

  it("restates 3.1's spellings as 3.0's and leaves everything else as it was", () => {
    const out = openApiForSwagger(doc) as typeof doc & Record<string, unknown>;
    expect(out.openapi).toBe("3.0.3");
    expect(out.webhooks).toBeUndefined();
    expect(out.components.schemas.Book.properties).toEqual({
      type: { type: "string" },
      price: { type: "number", nullable: true, example: 9.5 },
      kind: { enum: ["book"] },
      tags: { type: "array", items: { type: "integer", nullable: true } },
      any: { anyOf: [{ type: "string" }, { type: "integer" }] },
    });
    const get = out.paths["/books"].get;
    expect(get.parameters[0]).toEqual({ name: "type", in: "query", schema: { type: "string", nullable: true }, examples: { a: { value: "x" } } });
    expect(get.responses["200"].content["application/json"]).toEqual(doc.paths["/books"].get.responses["200"].content["application/json"]);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("returns a document of another version as it is", () => {
    const old = { openapi: "3.0.3", info: { title: "t" }, paths: {} };
    expect(openApiForSwagger(old)).toBe(old);
  });
});
