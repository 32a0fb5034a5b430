// Cursor pages: every collection read answers `Link: <…>; rel="next"` with an `_after` cursor while rows
// remain (PRODUCT "Query grammar, second edition"), on every engine through both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../helpers/harness";
import { expect422, insert, list, MATRIX, useHarness } from "./contract-helpers";
import { seedReads } from "./reads-fixture";

/** The path of a Link rel="next" header (relative to the server), or undefined when there is none. */
const nextPath = (link: string | null) => {
  const match = link?.match(/^<([^>]+)>; rel="next"$/);
  return match ? new URL(match[1]).pathname + new URL(match[1]).search : undefined;
};

/** Follows Link headers from `path` to the last page; returns every row in order and the number of pages. */
const walk = async (h: Harness, path: string) => {
  const rows: any[] = [];
  let pages = 0;
  for (let next: string | undefined = path; next; pages++) {
    const reply = await h.request("GET", next);
    expect(reply.status, reply.text).toBe(200);
    rows.push(...reply.body);
    next = nextPath(reply.headers.get("link"));
    if (next) expect(next).toContain("_after=");
  }
  return { rows, pages };
};

describe.each(MATRIX)("cursor pages on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";

  beforeAll(async () => {
    ({ base } = await seedReads(ctx.h, "Cursor pages"));
  });

  it("a full page links to the next; the last page has no Link", async () => {
    const first = await ctx.h.request("GET", `${base}/books?_limit=5`);
    expect(first.headers.get("link")).toMatch(/^<http[^>]+\/books\?_limit=5&_after=[A-Za-z0-9_-]+>; rel="next"$/);
    const second = await ctx.h.request("GET", nextPath(first.headers.get("link"))!);
    expect(second.body.map((r: any) => r.id)).toEqual([6, 7, 8]);
    expect(second.headers.get("link"), "no rows remain").toBeNull();
    const exact = await ctx.h.request("GET", `${base}/books?_limit=8`);
    expect(exact.headers.get("link"), "a page that ends exactly at the last row has no Link").toBeNull();
  });

  it.each([
    ["id order", ""],
    ["text ascending (NULLs first, case-insensitive ties)", "&_sort=genre"],
    ["text descending (NULLs last)", "&_sort=-genre"],
    ["decimal with NULL, then title", "&_sort=price,-title"],
    ["boolean then date descending", "&_sort=in_print,-published"],
    ["int descending with NULL", "&_sort=-pages"],
    ["a filter kept in the Link", "&genre_null=false&_sort=genre,-id"],
  ])("walking the Links in %s returns exactly the rows of one big read", async (_name, params) => {
    const whole = await list(ctx.h, `${base}/books?_limit=1000${params}`);
    for (const size of [1, 2, 3]) {
      const { rows, pages } = await walk(ctx.h, `${base}/books?_limit=${size}${params}`);
      expect(rows).toEqual(whole);
      expect(pages).toBe(Math.max(1, Math.ceil(whole.length / size)));
    }
  });

  it("joins answer Link too, and their pages add up to the whole join", async () => {
    const whole = await list(ctx.h, `${base}/shelf?_limit=1000&_sort=-author`);
    const { rows } = await walk(ctx.h, `${base}/shelf?_limit=2&_sort=-author`);
    expect(rows).toEqual(whole);
  });

  it("_offset keeps working and its page links on by cursor", async () => {
    const reply = await ctx.h.request("GET", `${base}/books?_limit=2&_offset=3`);
    expect(reply.body.map((r: any) => r.id)).toEqual([4, 5]);
    const next = nextPath(reply.headers.get("link"))!;
    expect(next).not.toContain("_offset");
    expect((await list(ctx.h, next)).map((r) => r.id)).toEqual([6, 7]);
  });

  it("is stable under inserts: rows added before the cursor do not shift the next page", async () => {
    const own = await insert(ctx.h, `${base}/categories`, [{ label: "c-b" }, { label: "c-d" }, { label: "c-f" }]);
    const first = await ctx.h.request("GET", `${base}/categories?label_like=c-&_sort=label&_limit=2`);
    expect(first.body.map((r: any) => r.label)).toEqual(["c-b", "c-d"]);
    await insert(ctx.h, `${base}/categories`, [{ label: "c-a" }, { label: "c-c" }, { label: "c-e" }]);
    const second = await list(ctx.h, nextPath(first.headers.get("link"))!);
    expect(second.map((r) => r.label)).toEqual(["c-e", "c-f"]);
    expect(own).toHaveLength(3);
  });

  it("refuses _after with _offset, naming _after", async () => {
    const first = await ctx.h.request("GET", `${base}/books?_limit=2`);
    const cursor = new URL(first.headers.get("link")!.slice(1, -13)).searchParams.get("_after")!;
    expect422(await ctx.h.request("GET", `${base}/books?_limit=2&_offset=2&_after=${cursor}`), "_after");
  });

  it.each([
    ["not base64 JSON", "%21%21%21"],
    ["empty", ""],
    ["JSON of the wrong shape", Buffer.from('{"a":1}').toString("base64url")],
    ["a cursor of another sort", Buffer.from(JSON.stringify(["-title", "Zed", 3])).toString("base64url")],
    ["a key of the wrong type", Buffer.from(JSON.stringify(["", "x"])).toString("base64url")],
  ])("refuses a cursor that is %s with 422 naming _after", async (_name, cursor) => {
    expect422(await ctx.h.request("GET", `${base}/books?_after=${cursor}`), "_after");
  });

  it("a cursor from one _sort is refused by another", async () => {
    const first = await ctx.h.request("GET", `${base}/books?_limit=2&_sort=title`);
    const cursor = new URL(first.headers.get("link")!.slice(1, -13)).searchParams.get("_after")!;
    expect422(await ctx.h.request("GET", `${base}/books?_sort=price&_after=${cursor}`), "_after");
  });
});
