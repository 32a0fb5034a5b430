// Value limits of the data API, the same on both engines and both adapters: JSON nesting (32 levels, also
// for 4,500-deep bodies), non-finite numbers in bodies and filters, lone UTF-16 surrogates in bodies and in
// filter values. Each is a 422 naming the limit's code and the field, and the table is unchanged afterwards.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, MATRIX, useHarness } from "../contract/contract-helpers";
import { JSON_MAX_DEPTH } from "../../lib/schema/value-limits";

/** `levels` levels as MySQL's JSON_DEPTH counts them: levels - 1 nested arrays around a 1. */
const nested = (levels: number) => `${"[".repeat(levels - 1)}1${"]".repeat(levels - 1)}`;

describe.each(MATRIX)("value limits ($engine, $adapter)", (target) => {
  const ctx = useHarness(target);
  let path = "";
  let id = 0;
  const rows = async () => (await ctx.h.request("GET", `${path}?_limit=1000`)).text;

  beforeAll(async () => {
    const db = await createDatabase(ctx.h, "limits", [
      { name: "vals", columns: [{ name: "title", type: "varchar", length: 20 }, { name: "n", type: "float" }, { name: "doc", type: "json" }, { name: "body", type: "text" }] },
    ]);
    path = `/v1/${db}/vals`;
    const first = await ctx.h.request("POST", path, { body: { title: "first", n: 1.5, doc: { a: 1 } } });
    expect(first.status, first.text).toBe(201);
    id = first.body.id;
  });

  /** Sends a refused write and checks the 422 names `field` with `code`, and that no row changed. */
  const refused = async (method: string, url: string, rawBody: string, field: string, code: string) => {
    const before = await rows();
    const reply = await ctx.h.request(method, url, { rawBody });
    expect422(reply, field);
    expect(reply.body.errors.find((e: { field: string }) => e.field === field).code).toBe(code);
    expect(await rows()).toBe(before);
  };

  it(`should store json nested ${JSON_MAX_DEPTH} levels and read it back unchanged`, async () => {
    const reply = await ctx.h.request("POST", path, { rawBody: `{"title":"deep","doc":${nested(JSON_MAX_DEPTH)}}` });
    expect(reply.status, reply.text).toBe(201);
    expect(JSON.stringify(reply.body.doc)).toBe(nested(JSON_MAX_DEPTH));
    expect((await ctx.h.request("DELETE", `${path}/${reply.body.id}`)).status).toBe(204);
  });

  it(`should refuse json nested ${JSON_MAX_DEPTH + 1} levels, or 4,500, with too_deep on the field`, async () => {
    await refused("POST", path, `{"title":"x","doc":${nested(JSON_MAX_DEPTH + 1)}}`, "doc", "too_deep");
    await refused("POST", path, `{"title":"x","doc":${nested(4500)}}`, "doc", "too_deep");
    await refused("PATCH", `${path}/${id}`, `{"doc":{"a":${nested(100_000)}}}`, "doc", "too_deep");
  });

  it("should refuse a 4,500-deep value in any column and a 4,500-deep body without a stack overflow", async () => {
    await refused("POST", path, `{"title":${nested(4500)}}`, "title", "invalid_type");
    // An array body is a bulk insert: its first item, itself an array, is not a record.
    const reply = await ctx.h.request("POST", path, { rawBody: nested(4500) });
    expect422(reply, "[0]");
  });

  it("should refuse non-finite numbers in bodies: float columns and inside json", async () => {
    await refused("POST", path, `{"title":"x","n":1e999}`, "n", "not_finite");
    await refused("PUT", `${path}/${id}`, `{"title":"x","n":-1e999}`, "n", "not_finite");
    await refused("POST", path, `{"title":"x","doc":{"big":[1,1e400]}}`, "doc", "not_finite");
  });

  it("should refuse a non-finite filter value with a 422 naming the filter", async () => {
    for (const filter of ["n_lt=1e999", "n=-1e999", "n_in=1,1e999"]) {
      const reply = await ctx.h.request("GET", `${path}?${filter}`);
      expect422(reply, filter.split("=")[0]);
    }
    const fine = await ctx.h.request("GET", `${path}?n_lt=1e300`);
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.map((r: { title: string }) => r.title)).toEqual(["first"]);
  });

  it("should refuse lone surrogates in strings, json strings and json keys, naming the field", async () => {
    await refused("POST", path, String.raw`{"title":"\ud800x"}`, "title", "invalid_text");
    await refused("POST", path, String.raw`{"title":"ok","body":"x\udc00"}`, "body", "invalid_text");
    await refused("PATCH", `${path}/${id}`, String.raw`{"doc":{"k":["\ud83d"]}}`, "doc", "invalid_text");
    await refused("PATCH", `${path}/${id}`, String.raw`{"doc":{"\udfff":1}}`, "doc", "invalid_text");
  });

  it("should store a well-formed surrogate pair (an emoji) unchanged", async () => {
    const reply = await ctx.h.request("POST", path, { rawBody: String.raw`{"title":"\ud83d\ude00","doc":{"\ud83d\ude00":"\ud83d\ude00"}}` });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.title).toBe("😀");
    expect(reply.body.doc).toEqual({ "😀": "😀" });
    expect((await ctx.h.request("DELETE", `${path}/${reply.body.id}`)).status).toBe(204);
  });

  it("should refuse a filter value whose escapes are a lone surrogate, and keep a literal % working", async () => {
    expect422(await ctx.h.request("GET", `${path}?title=%ED%A0%80`), "title");
    expect422(await ctx.h.request("GET", `${path}?title_like=a%ED%A0%80b`), "title_like");
    const literal = await ctx.h.request("GET", `${path}?title_like=100%`);
    expect(literal.status, literal.text).toBe(200);
    const emoji = await ctx.h.request("GET", `${path}?title=%F0%9F%98%80`);
    expect(emoji.status, emoji.text).toBe(200);
  });
});
