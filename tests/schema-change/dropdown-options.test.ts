// Dropdown options over HTTP on both engines: an option replaced by another in one change is never taken for
// a rename. Rows holding a removed option make the change a 422 naming the option and its row count, with
// nothing changed, unless `rename` says what those rows become (another option, or NULL where allowed).
import { beforeEach, describe, expect, it } from "vitest";
import { createDatabase, expectError, insert, list, MATRIX, useHarness } from "../contract/contract-helpers";

const STATUS = ["archived", "active", "archived", "archived", null];

describe.each(MATRIX)("dropdown options ($engine, $adapter)", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  const column = () => `/api/v1/databases/${instance}/tables/products/columns/status`;
  const patch = (body: unknown) => ctx.h.request("PATCH", column(), { body });
  const statuses = async () => (await list(ctx.h, `/v1/${instance}/products?_sort=id`)).map((r) => r.status);
  const options = async () => (await ctx.h.request("GET", `/api/v1/databases/${instance}/tables/products`)).body.columns.find((c: { name: string }) => c.name === "status").options;

  beforeEach(async () => {
    instance = await createDatabase(ctx.h, "options", [
      { name: "products", columns: [{ name: "status", type: "dropdown", options: ["active", "archived"], default: "archived" }, { name: "kind", type: "dropdown", options: ["a", "b"], nullable: false, default: "a" }] },
    ]);
    await insert(ctx.h, `/v1/${instance}/products`, STATUS.map((status) => ({ status, kind: "b" })));
  });

  it("removing an option and adding another in one change is refused with the option and its row count", async () => {
    const reply = await patch({ options: ["active", "discontinued"] });
    expectError(reply, 422, "validation_failed", ["options"]);
    const message = '3 rows hold "archived", which this change removes; say what they become with "rename": {"archived": "<option>"} (or null)';
    expect(reply.body).toEqual({ error: "validation_failed", message, errors: [{ field: "options", code: "option_in_use", message }], options_in_use: [{ option: "archived", rows: 3 }] });
    expect(await statuses()).toEqual(STATUS);
    expect(await options()).toEqual(["active", "archived"]);
    // The allowed half: an option no row holds is removed, and another added, without a word.
    const unused = await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/products/columns/kind`, { body: { options: ["b", "c"], default: "b" } });
    expect(unused.status, unused.text).toBe(200);
    expect(unused.body.options).toEqual(["b", "c"]);
  });

  it("an explicit rename renames the rows and the default, in place in the list", async () => {
    const reply = await patch({ rename: { archived: "discontinued" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ options: ["active", "discontinued"], default: "discontinued" });
    expect(await statuses()).toEqual(["discontinued", "active", "discontinued", "discontinued", null]);
  });

  it("a rename with the new list, and a rename into an option that stays (a merge)", async () => {
    expect((await patch({ options: ["discontinued", "active"], rename: { archived: "discontinued" } })).status).toBe(200);
    expect(await options()).toEqual(["discontinued", "active"]);
    const merged = await patch({ options: ["active"], rename: { discontinued: "active" } });
    expect(merged.status, merged.text).toBe(200);
    expect(await statuses()).toEqual(["active", "active", "active", "active", null]);
  });

  it("a removed option's rows become NULL when the rename says null and the column allows it", async () => {
    const reply = await patch({ options: ["active"], rename: { archived: null } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.default).toBeUndefined();
    expect(await statuses()).toEqual([null, "active", null, null, null]);
  });

  const refusals: [string, () => string, unknown, string, string][] = [
    ["null in a required column", () => `/api/v1/databases/${instance}/tables/products/columns/kind`, { options: ["a"], rename: { b: null } }, "rename.b", '"kind" is required: its rows cannot become NULL; rename "b" to an option'],
    ["an unknown option", column, { rename: { gone: "x" } }, "rename.gone", '"gone" is not an option of "status" (active, archived)'],
    ["a target outside the new list", column, { options: ["active"], rename: { archived: "other" } }, "rename.archived", '"other" is not among the new options (active)'],
    ["a renamed option kept in the list", column, { options: ["active", "archived", "new"], rename: { archived: "new" } }, "rename.archived", '"archived" is renamed, so it cannot stay in the options'],
  ];
  it.each(refusals)("refuses a rename to %s, changing nothing", async (_, path, body, field, message) => {
    const reply = await ctx.h.request("PATCH", path(), { body });
    expect(reply.body, reply.text).toEqual({ error: "validation_failed", message, errors: [{ field, code: "invalid_rename", message }] });
    expect(await statuses()).toEqual(STATUS);
    expect(await options()).toEqual(["active", "archived"]);
  });

  it("refuses rename on a column that is not a dropdown", async () => {
    await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/products/columns`, { body: { name: "title", type: "varchar" } });
    const reply = await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/products/columns/title`, { body: { rename: { a: "b" } } });
    const message = "rename applies to the options of a dropdown column";
    expect(reply.body).toEqual({ error: "validation_failed", message, errors: [{ field: "rename", code: "invalid_rename", message }] });
  });

  it("publishes rename in the column change's OpenAPI schema", async () => {
    const doc = await ctx.h.request("GET", "/api/v1/openapi.json");
    const rename = doc.body.components.schemas.ColumnPatch.properties.rename;
    expect(rename.type).toBe("object");
    expect(JSON.stringify(rename.additionalProperties)).toContain("null");
    expect(rename.description).toMatch(/option/);
  });
});
