// OR groups (docs/api.md, "OR groups"): `_or=<URL-encoded filters>` ORs its filters; several groups AND with each other
// and with the plain filters. Table reads, join reads, `_aggregate`, `Prefer: count=exact`, cursor pages and the
// 422s naming `_or[i].<param>`, on every engine through both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import { expect422, list, MATRIX, useHarness } from "./contract-helpers";
import { BOOKS, seedReads } from "./reads-fixture";

/** One `_or` parameter from its filters: the inner query string, encoded once more as the outer value. */
const or = (filters: Record<string, string | number>) => `_or=${encodeURIComponent(new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)])).toString())}`;

type Book = (typeof BOOKS)[number];
/** Book ids (1-based, in insert order) that meet `test`, computed from the fixture rather than written out. */
const idsWhere = (test: (b: Book) => boolean) => BOOKS.flatMap((b, i) => (test(b) ? [i + 1] : []));

describe.each(MATRIX)("_or groups on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";
  const ids = async (path: string) => (await list(ctx.h, `${base}/${path}`)).map((r) => r.id);

  beforeAll(async () => {
    ({ base } = await seedReads(ctx.h, "Or groups"));
  });

  it("ORs the filters of one group", async () => {
    const expected = idsWhere((b) => (b.price !== null && b.price < 1) || b.genre === "classic");
    expect(expected).toEqual([2, 5, 6]);
    expect(await ids(`books?${or({ price_lt: 1, genre: "classic" })}`)).toEqual(expected);
  });

  it("ANDs a group with the plain filters and with other groups", async () => {
    expect(await ids(`books?in_print=true&${or({ price_lt: 1, genre: "classic" })}`)).toEqual(idsWhere((b) => b.in_print === true && ((b.price ?? 99) < 1 || b.genre === "classic")));
    const two = `books?${or({ genre: "classic", genre_null: "true" })}&${or({ price_gt: 10, pages_lt: 100 })}`;
    expect(await ids(two)).toEqual(idsWhere((b) => (b.genre === "classic" || b.genre === null) && ((b.price ?? 0) > 10 || (b.pages ?? 999) < 100)));
    expect(await ids(two)).toEqual([4, 8]);
  });

  it("reads the same shape with other values correctly (statements are reused by shape)", async () => {
    expect(await ids(`books?${or({ title: "Dune", pages_gt: 470 })}`)).toEqual([1, 2]);
    expect(await ids(`books?${or({ title: "Ubik", pages_gt: 410 })}`)).toEqual([1, 2, 3]);
    expect(await ids(`books?${or({ title_in: "Dune,Emma,Ubik" })}`)).toEqual([1, 2, 3]);
    expect(await ids(`books?${or({ title_in: "Emma" })}`)).toEqual([2]);
  });

  it("works on a join read", async () => {
    const rows = await list(ctx.h, `${base}/shelf?${or({ author: "Jane", price_lt: 1 })}`);
    expect(rows.map((r) => [r.id, r.author])).toEqual([[2, "Jane"], [4, "Jane"], [5, "Philip"], [6, "Frank"]]);
  });

  it("counts with Prefer: count=exact and aggregates over the group", async () => {
    const reply = await ctx.h.request("GET", `${base}/books?_limit=1&${or({ genre: "scifi", genre_null: "true" })}`, { headers: { prefer: "count=exact" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("x-total-count")).toBe(String(idsWhere((b) => b.genre === "scifi" || b.genre === null).length));
    const grouped = await list(ctx.h, `${base}/books/_aggregate?_group=genre&_agg=count&_sort=genre&${or({ genre: "scifi", genre_null: "true" })}`);
    expect(grouped).toEqual([{ genre: null, count: 2 }, { genre: "scifi", count: 3 }]);
    const joined = await list(ctx.h, `${base}/shelf/_aggregate?_agg=count&${or({ author: "Jane", price_lt: 1 })}`);
    expect(joined).toEqual([{ count: 4 }]);
  });

  it("carries the group along in the Link of cursor pages", async () => {
    const group = or({ genre: "scifi", price_gt: 5 });
    const whole = await ids(`books?${group}&_sort=-price`);
    expect(whole.length).toBeGreaterThan(3);
    const seen: number[] = [];
    for (let next: string | undefined = `${base}/books?${group}&_sort=-price&_limit=2`; next; ) {
      const reply = await ctx.h.request("GET", next);
      expect(reply.status, reply.text).toBe(200);
      seen.push(...reply.body.map((r: { id: number }) => r.id));
      const link = reply.headers.get("link")?.match(/^<([^>]+)>/)?.[1];
      if (link) expect(new URL(link).searchParams.getAll("_or")).toEqual([new URLSearchParams(group).get("_or")]);
      next = link && new URL(link).pathname + new URL(link).search;
    }
    expect(seen).toEqual(whole);
  });

  it("checks every inner filter like a top-level one, naming _or[i].<param>", async () => {
    const at = (query: string) => ctx.h.request("GET", `${base}/books?${query}`);
    expect422(await at(`${or({ title: "Dune" })}&${or({ nope: 1 })}`), "_or[1].nope");
    expect422(await at(`${or({ price_lt: "cheap", title: "x" })}`), "_or[0].price_lt");
    expect422(await at(`${or({ _limit: 5 })}`), "_or[0]._limit");
    expect422(await at(`${or({ _or: "title=x" })}`), "_or[0]._or");
    expect422(await at("_or="), "_or[0]");
    expect422(await ctx.h.request("GET", `${base}/authors?${or({ pin: "x" })}`), "_or[0].pin");
    expect422(await ctx.h.request("GET", `${base}/shelf?${or({ nope: 1 })}`), "_or[0].nope");
    expect422(await ctx.h.request("GET", `${base}/books/_aggregate?_agg=count&${or({ nope: 1 })}`), "_or[0].nope");
  });

  it("allows 10 groups of 20 filters and refuses more (422 named)", async () => {
    const wide = new URLSearchParams(Array.from({ length: 20 }, (_, i) => [i % 2 ? "pages_gt" : "price_gt", String(i)])).toString();
    const groups = (n: number) => Array.from({ length: n }, () => `_or=${encodeURIComponent(wide)}`).join("&");
    expect(await ids(`books?${groups(10)}`)).toEqual(idsWhere((b) => (b.price ?? 0) > 0 || (b.pages ?? 0) > 1));
    expect422(await ctx.h.request("GET", `${base}/books?${groups(11)}`), "_or");
    expect422(await ctx.h.request("GET", `${base}/books?_or=${encodeURIComponent(`${wide}&title=x`)}`), "_or[0]");
  });

  it("is one described `_or` parameter of every list and aggregate operation in the OpenAPI", async () => {
    const doc = (await ctx.h.request("GET", `${base}/openapi.json`)).body;
    const resolve = (p: any) => (p.$ref ? doc.components.parameters[p.$ref.split("/").pop()] : p);
    for (const path of ["/books", "/shelf", "/books/_aggregate", "/shelf/_aggregate"]) {
      const ors = doc.paths[path].get.parameters.map(resolve).filter((p: any) => p.name === "_or");
      expect(ors, path).toHaveLength(1);
      expect(ors[0]).toMatchObject({ in: "query", style: "form", explode: true, schema: { type: "array", maxItems: 10 } });
      expect(ors[0].description).toContain("_or=price_lt%3D10%26stock%3D0");
    }
  });
});
