// `_select` (projection) and `_expand` (related rows) on table and join reads: PRODUCT "Query grammar, second
// edition", on every engine through both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import { expect422, list, MATRIX, useHarness } from "./contract-helpers";
import { parseExpand } from "../../lib/api/parse-projection";
import type { ColumnDef } from "../../lib/schema/types";
import { countStatements, seedReads } from "./reads-fixture";

describe.each(MATRIX)("_select and _expand on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";

  beforeAll(async () => {
    ({ base } = await seedReads(ctx.h, "Select expand"));
  });

  describe("_select", () => {
    it("returns only the named columns, id always among them, in the table's column order", async () => {
      const rows = await list(ctx.h, `${base}/books?_select=price,title&_limit=2`);
      expect(rows).toEqual([
        { id: 1, title: "Dune", price: 9.99 },
        { id: 2, title: "Emma", price: 5.1 },
      ]);
    });

    it("works with filters and a sort on columns it leaves out", async () => {
      const rows = await list(ctx.h, `${base}/books?_select=title&genre=scifi&_sort=-pages`);
      expect(rows).toEqual([{ id: 1, title: "Dune" }, { id: 3, title: "Ubik" }, { id: 7, title: "Anonymous" }]);
    });

    it("projects a join's output columns, keeping the join's id", async () => {
      const rows = await list(ctx.h, `${base}/shelf?_select=author&_limit=2`);
      expect(rows).toEqual([{ id: 1, author: "Frank" }, { id: 2, author: "Jane" }]);
    });

    it.each([["nope"], ["title,nope"], [""], ["title,"]])("refuses _select=%s with 422 naming _select", async (value) => {
      expect422(await ctx.h.request("GET", `${base}/books?_select=${value}`), "_select");
      expect422(await ctx.h.request("GET", `${base}/shelf?_select=${value}`), "_select");
    });
  });

  describe("_expand", () => {
    it("adds the referenced rows under expand, null where the reference is empty; password columns never appear", async () => {
      const rows = await list(ctx.h, `${base}/books?_expand=author_id,category_id&_limit=8&_select=title`);
      expect(rows[0]).toEqual({
        id: 1,
        title: "Dune",
        expand: {
          author_id: { id: 1, name: "Frank", country: "US", created_at: expect.any(String), updated_at: expect.any(String) },
          category_id: { id: 1, label: "Fiction", created_at: expect.any(String), updated_at: expect.any(String) },
        },
      });
      expect(rows[6].expand.author_id, "book 7 has no author").toBeNull();
      expect(rows[7].expand.category_id, "book 8 has no category").toBeNull();
      expect(rows.map((r) => r.expand.author_id?.name ?? null)).toEqual(["Frank", "Jane", "Philip", "Jane", "Philip", "Frank", null, "Frank"]);
      for (const row of rows) if (row.expand.author_id) expect(Object.keys(row.expand.author_id)).not.toContain("pin");
    });

    it("two columns referencing the same table expand independently", async () => {
      const rows = await list(ctx.h, `${base}/books?_expand=author_id,editor_id&_limit=3`);
      expect(rows.map((r) => [r.expand.author_id?.name ?? null, r.expand.editor_id?.name ?? null])).toEqual([
        ["Frank", "Jane"],
        ["Jane", null],
        ["Philip", "Frank"],
      ]);
      expect(rows[0].author_id, "without _select the record keeps its reference columns").toBe(1);
    });

    it("runs one extra statement per expanded column for the whole page, however many rows", async () => {
      for (const limit of [2, 8]) {
        const seen = await countStatements(ctx.h.app, () => list(ctx.h, `${base}/books?_expand=author_id,editor_id,category_id&_limit=${limit}`));
        expect(seen.length, seen.join("\n")).toBe(1 + 3);
      }
    });

    it("expands reference columns of a join's output", async () => {
      const rows = await list(ctx.h, `${base}/shelf?_expand=editor_id&_select=title&_limit=2`);
      expect(rows.map((r) => [r.title, r.expand.editor_id?.name ?? null])).toEqual([["Dune", "Jane"], ["Emma", null]]);
    });

    it.each([
      ["nope", "no such column"],
      ["title", "only reference columns"],
      ["author_id,author_id,editor_id,category_id,title", "only reference columns"],
    ])("refuses _expand=%s with 422 naming _expand", async (value, words) => {
      const reply = await ctx.h.request("GET", `${base}/books?_expand=${value}`);
      expect422(reply, "_expand");
      expect(reply.body.message).toContain(words);
    });

    it("refuses more than five reference columns with 422 naming _expand", () => {
      const refs = Array.from({ length: 6 }, (_, i): ColumnDef => ({ name: `r${i}`, type: "reference", references: "authors", nullable: true, unique: false }));
      const errors: { field: string; code: string }[] = [];
      expect(parseExpand(refs.map((c) => c.name).join(","), new Map(refs.map((c) => [c.name, c])), (field, code) => errors.push({ field, code }))).toHaveLength(6);
      expect(errors).toEqual([{ field: "_expand", code: "too_many" }]);
    });
  });
});
