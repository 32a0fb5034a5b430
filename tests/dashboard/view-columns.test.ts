// A saved view's stale columns: every filter (OR groups included), sort and hidden column naming a column the
// table no longer has is found by name, with what used it; known columns and operators are never reported.
import { describe, expect, it } from "vitest";
import { describeMissing, missingViewColumns } from "../../components/data/view-columns";

const COLUMNS = ["id", "title", "cost", "created_at", "updated_at"];

describe("missingViewColumns", () => {
  it.each([
    ["a view over present columns", "title_ilike=a&cost_gte=3&_sort=-cost,title&_limit=25", ["cost"], []],
    ["a renamed column used by a filter and the sort", "price_gte=10&_sort=-price&_limit=25", [], [{ column: "price", uses: ["filter", "sort"] }]],
    ["a plain equality filter", "colour=red", [], [{ column: "colour", uses: ["filter"] }]],
    ["a filter inside an OR group", `_or=${encodeURIComponent("title=a&price_lt=3")}`, [], [{ column: "price", uses: ["filter"] }]],
    ["a hidden column", "", ["notes", "cost"], [{ column: "notes", uses: ["hidden"] }]],
    ["an is-null filter", "seen_at_null=true", [], [{ column: "seen_at", uses: ["filter"] }]],
  ])("%s", (_, query, hidden, expected) => {
    expect(missingViewColumns({ query, hidden_columns: hidden }, COLUMNS)).toEqual(expected);
  });

  it("names each column and its uses in one sentence", () => {
    expect(describeMissing("Dear first", [{ column: "price", uses: ["filter", "sort"] }])).toBe(
      'View "Dear first" uses a column this table no longer has (renamed or dropped): "price" (its filter, its sort). That part is not applied; the rest is. Save changes to the view to keep it as shown.',
    );
  });
});
