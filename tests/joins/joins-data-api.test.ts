// Join definitions through the management API and join reads through the data API (spec §1.4–1.5, §4 row 8),
// on every engine through both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import { expect422, expectError, list, MATRIX, useHarness } from "../contract/contract-helpers";
import { BOOKS_JOIN, CATALOG, CATALOG_SQL, seedCatalog } from "./join-fixture";

const pick = (rows: any[], key: string) => rows.map((r) => r[key]);

describe.each(MATRIX)("joins on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  let base = "";
  let mgmt = "";

  beforeAll(async () => {
    ({ instance, base } = await seedCatalog(ctx.h, "Join shop"));
    mgmt = `/api/v1/databases/${instance}/joins`;
    const reply = await ctx.h.request("POST", mgmt, { body: BOOKS_JOIN });
    expect(reply.status, reply.text).toBe(201);
  });

  it("POST returns the structured form and its data path; GET and the list return the same", async () => {
    const one = await ctx.h.request("GET", `${mgmt}/catalog`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...BOOKS_JOIN, path: `/v1/${instance}/catalog` });
    const all = await ctx.h.request("GET", mgmt);
    expect(all.body).toEqual([one.body]);
  });

  it("a three-table inner join returns only rows whose keys match, ordered by the base id", async () => {
    expect(await list(ctx.h, `${base}/catalog`)).toEqual(CATALOG);
  });

  it("filters on output columns that come from different tables combine", async () => {
    expect(pick(await list(ctx.h, `${base}/catalog?author=Ursula&category=poetry`), "title")).toEqual(["Lathe of Heaven"]);
    expect(pick(await list(ctx.h, `${base}/catalog?country_in=GB,NG&price_lt=10`), "title")).toEqual(["all about love"]);
    expect(pick(await list(ctx.h, `${base}/catalog?category_ilike=FICT&title_like=Earth`), "id")).toEqual([3]);
    expect(pick(await list(ctx.h, `${base}/catalog?price_gte=12.5`), "id")).toEqual([1, 4]);
    expect(pick(await list(ctx.h, `${base}/catalog?author=ursula`), "id"), "exact match is case-sensitive").toEqual([]);
    expect(pick(await list(ctx.h, `${base}/catalog?country_null=false&id_gt=2`), "id")).toEqual([3, 4]);
  });

  it("sorts on output columns from different tables, with the base id as tie-breaker", async () => {
    expect(pick(await list(ctx.h, `${base}/catalog?_sort=author,-price`), "id")).toEqual([2, 1, 4, 3]);
    expect(pick(await list(ctx.h, `${base}/catalog?_sort=-category,title`), "id")).toEqual([2, 4, 3, 1]);
    expect(pick(await list(ctx.h, `${base}/catalog?_sort=price`), "id")).toEqual([3, 2, 1, 4]);
  });

  it("paginates with _limit and _offset; Prefer: count=exact counts the joined rows", async () => {
    expect(pick(await list(ctx.h, `${base}/catalog?_limit=2`), "id")).toEqual([1, 2]);
    expect(pick(await list(ctx.h, `${base}/catalog?_limit=2&_offset=2`), "id")).toEqual([3, 4]);
    expect(await list(ctx.h, `${base}/catalog?_limit=2&_offset=4`)).toEqual([]);
    const counted = await ctx.h.request("GET", `${base}/catalog?author=Ursula&_limit=1`, { headers: { prefer: "count=exact" } });
    expect(counted.status).toBe(200);
    expect(counted.body).toHaveLength(1);
    expect(counted.headers.get("x-total-count")).toBe("3");
  });

  it("no matching rows is 200 []", async () => {
    const reply = await ctx.h.request("GET", `${base}/catalog?author=Chinua`);
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: [] });
  });

  it("filters and sorts name output columns only (a source name is 422), with the usual grammar checks", async () => {
    expect422(await ctx.h.request("GET", `${base}/catalog?label=Fiction`), "label");
    expect422(await ctx.h.request("GET", `${base}/catalog?_sort=name`), "_sort");
    expect422(await ctx.h.request("GET", `${base}/catalog?_limit=0`), "_limit");
    expect422(await ctx.h.request("GET", `${base}/catalog?price=abc`), "price");
  });

  it("a join path has no /{id} (404) and answers other verbs with 405 Allow: GET", async () => {
    expectError(await ctx.h.request("GET", `${base}/catalog/1`), 404, "not_found");
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const reply = await ctx.h.request(method, `${base}/catalog`, { body: {} });
      expectError(reply, 405, "method_not_allowed");
      expect(reply.headers.get("allow")).toBe("GET");
    }
    const preflight = await ctx.h.request("OPTIONS", `${base}/catalog`, { key: null });
    expect({ status: preflight.status, allow: preflight.headers.get("allow") }).toEqual({ status: 204, allow: "GET, OPTIONS" });
  });

  it("a one-to-many join pages stably: ties are broken by the id of every table that can repeat", async () => {
    const byAuthor = {
      name: "by_author",
      base: "authors",
      joins: [{ table: "books", on: [["authors.id", "books.author_id"]] }],
      columns: [{ column: "authors.name", as: "author" }, { column: "books.title", as: "title" }],
    };
    expect((await ctx.h.request("POST", mgmt, { body: byAuthor })).status).toBe(201);
    const titles: string[] = [];
    for (let offset = 0; offset < 5; offset++) titles.push(...pick(await list(ctx.h, `${base}/by_author?_sort=-author&_limit=1&_offset=${offset}`), "title"));
    expect(titles).toEqual(["The Dispossessed", "Earthsea", "Lathe of Heaven", "all about love", "Unfiled"]);
  });

  it("SQL mode stores the same definition (with its SQL beside it) and serves the same rows", async () => {
    const made = await ctx.h.request("POST", mgmt, { body: { name: "catalog_sql", sql: CATALOG_SQL } });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toEqual({ ...BOOKS_JOIN, name: "catalog_sql", sql: CATALOG_SQL, path: `/v1/${instance}/catalog_sql` });
    expect(await list(ctx.h, `${base}/catalog_sql`)).toEqual(CATALOG);
    expect((await ctx.h.request("DELETE", `${mgmt}/catalog_sql`)).status).toBe(204);
    expectError(await ctx.h.request("GET", `${base}/catalog_sql`), 404, "not_found");
  });
});
