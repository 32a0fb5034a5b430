// GET /{table}/_aggregate and /{join}/_aggregate (PRODUCT "Query grammar, second edition"): the same answers,
// to the JSON type, on every engine through both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import { expect422, expectError, MATRIX, useHarness } from "./contract-helpers";
import { seedReads } from "./reads-fixture";

describe.each(MATRIX)("aggregates on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";
  let instance = "";
  const agg = async (path: string) => {
    const reply = await ctx.h.request("GET", `${base}/${path}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };

  beforeAll(async () => {
    ({ base, instance } = await seedReads(ctx.h, "Aggregates"));
  });

  it("without _group: one row over the whole table, each aggregate typed as its column", async () => {
    expect(await agg("books/_aggregate?_agg=count,sum:price,avg:pages,min:published,max:published,count_distinct:genre,min:in_print,max:weight")).toEqual([
      { count: 8, sum_price: 37.89, avg_pages: 1766 / 7, min_published: "1815-12-23", max_published: "2002-02-02", count_distinct_genre: 3, min_in_print: false, max_weight: 1 },
    ]);
  });

  it("_agg defaults to count", async () => {
    expect(await agg("books/_aggregate")).toEqual([{ count: 8 }]);
  });

  it("groups by a column: NULL first, text case-insensitively with byte order breaking ties; decimals sum to their scale", async () => {
    expect(await agg("books/_aggregate?_group=genre&_agg=count,sum:price,avg:price,min:pages,max:pages,count_distinct:author_id")).toEqual([
      { genre: null, count: 2, sum_price: 15.3, avg_price: 7.65, min_pages: 50, max_pages: 324, count_distinct_author_id: 2 },
      { genre: "classic", count: 2, sum_price: 5.3, avg_price: 2.65, min_pages: 474, max_pages: 474, count_distinct_author_id: 2 },
      { genre: "SciFi", count: 1, sum_price: 0.1, avg_price: 0.1, min_pages: 204, max_pages: 204, count_distinct_author_id: 1 },
      { genre: "scifi", count: 3, sum_price: 17.19, avg_price: 8.595, min_pages: 100, max_pages: 412, count_distinct_author_id: 2 },
    ]);
  });

  it("groups by a boolean and by two columns", async () => {
    expect(await agg("books/_aggregate?_group=in_print")).toEqual([
      { in_print: null, count: 1 },
      { in_print: false, count: 3 },
      { in_print: true, count: 4 },
    ]);
    expect(await agg("books/_aggregate?_group=category_id,in_print&_agg=count&category_id_null=false")).toEqual([
      { category_id: 1, in_print: null, count: 1 },
      { category_id: 1, in_print: false, count: 2 },
      { category_id: 1, in_print: true, count: 1 },
      { category_id: 2, in_print: true, count: 3 },
    ]);
  });

  it("_sort orders by aggregate names and group names, _limit cuts", async () => {
    expect(await agg("books/_aggregate?_group=category_id&_agg=count,sum:price&_sort=-count")).toEqual([
      { category_id: 1, count: 4, sum_price: 17.29 },
      { category_id: 2, count: 3, sum_price: 17.6 },
      { category_id: null, count: 1, sum_price: 3 },
    ]);
    expect((await agg("books/_aggregate?_group=category_id&_agg=sum:price&_sort=sum_price")).map((r: any) => r.category_id)).toEqual([null, 1, 2]);
    expect((await agg("books/_aggregate?_group=category_id&_sort=-category_id&_limit=2")).map((r: any) => r.category_id)).toEqual([2, 1]);
    expect((await agg("books/_aggregate?_group=genre&_agg=avg:price&_sort=-avg_price&_limit=1"))).toEqual([{ genre: "scifi", avg_price: 8.595 }]);
  });

  it("applies the same filters as reads", async () => {
    expect(await agg("books/_aggregate?genre_ilike=scifi&price_gt=1&_agg=count,sum:price")).toEqual([{ count: 2, sum_price: 17.19 }]);
    expect(await agg("books/_aggregate?title=none&_agg=count,sum:price,avg:price,min:title")).toEqual([{ count: 0, sum_price: null, avg_price: null, min_title: null }]);
  });

  it("aggregates a join over its output columns", async () => {
    expect(await agg("shelf/_aggregate?_group=author&_agg=count,sum:price")).toEqual([
      { author: "Frank", count: 3, sum_price: 13.19 },
      { author: "Jane", count: 2, sum_price: 17.4 },
      { author: "Philip", count: 2, sum_price: 7.3 },
    ]);
    expect(await agg("shelf/_aggregate?author=Jane")).toEqual([{ count: 2 }]);
  });

  it.each([
    ["_group=nope", ["_group"]],
    ["_group=pin", ["_group"]],
    ["_agg=sum:title", ["_agg"]],
    ["_agg=median:price", ["_agg"]],
    ["_agg=sum", ["_agg"]],
    ["_agg=count&_sort=price", ["_sort"]],
    ["_select=title", ["_select"]],
    ["_expand=author_id", ["_expand"]],
    ["_after=abc", ["_after"]],
    ["price_gt=abc", ["price_gt"]],
    ["_limit=0", ["_limit"]],
    ["_group=nope&_agg=bad&_sort=x", ["_group", "_agg", "_sort"]],
  ])("refuses %s with 422 naming the parameter", async (query, fields) => {
    expect422(await ctx.h.request("GET", `${base}/books/_aggregate?${query}`), ...fields);
    expect422(await ctx.h.request("GET", `${base}/shelf/_aggregate?${query.replace("pin", "nope").replace("author_id", "editor_id")}`), ...fields);
  });

  it("answers only GET", async () => {
    expectError(await ctx.h.request("POST", `${base}/books/_aggregate`, { body: {} }), 405, "method_not_allowed");
    expectError(await ctx.h.request("DELETE", `${base}/shelf/_aggregate`), 405, "method_not_allowed");
  });

  it("no table can be named _aggregate, so the path never means a table", async () => {
    const reply = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "_aggregate", columns: [{ name: "x", type: "int" }] } });
    expect422(reply, "name");
  });
});
