// The visual editor's canvas → stored definition: table order follows the key pairs out from the base, and
// each pair is written [earlier table, joined table], whichever way it was dragged.
import { describe, expect, it } from "vitest";
import type { ColumnType } from "../../lib/schema/types";
import { canvasDefinition, canvasFromDefinition, definitionSql, EMPTY_CANVAS, outputNameFor, proposedPairs } from "../../components/joins/canvas-definition";

describe("canvasDefinition", () => {
  it("is undefined on an empty canvas", () => {
    expect(canvasDefinition(EMPTY_CANVAS)).toBeUndefined();
  });

  it("orders tables by the key pairs from the base, whatever order they were added and dragged", () => {
    const definition = canvasDefinition({
      tables: ["books", "categories", "authors"],
      pairs: [["countries.id", "authors.country_id"], ["authors.id", "books.author_id"], ["categories.id", "books.category_id"]],
      outputs: [{ column: "books.title", as: "title" }],
    });
    expect(definition).toEqual({
      base: "books",
      joins: [
        { table: "authors", on: [["books.author_id", "authors.id"]] },
        { table: "categories", on: [["books.category_id", "categories.id"]] },
      ],
      columns: [{ column: "books.title", as: "title" }],
    });
  });

  it("puts a table with no key pair last with an empty `on`, so the server names it", () => {
    expect(canvasDefinition({ tables: ["books", "tags"], pairs: [], outputs: [] })?.joins).toEqual([{ table: "tags", on: [] }]);
  });

  it("names a ticked column after itself, or table_column when that name is taken", () => {
    const state = { ...EMPTY_CANVAS, outputs: [{ column: "books.id", as: "id" }] };
    expect(outputNameFor(state, "authors.name")).toBe("name");
    expect(outputNameFor(state, "authors.id")).toBe("authors_id");
  });
});

describe("editing a saved join on the canvas", () => {
  const tables: { name: string; columns: { name: string; type: ColumnType; references?: string }[] }[] = [
    { name: "authors", columns: [{ name: "name", type: "varchar" }] },
    { name: "books", columns: [{ name: "title", type: "varchar" }, { name: "author_id", type: "reference", references: "authors" }] },
    { name: "tags", columns: [{ name: "book_id", type: "reference", references: "books" }] },
  ];

  it("puts a saved definition back on the canvas and gets the same definition out", () => {
    const saved = { base: "books", joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] as [string, string][] }], columns: [{ column: "books.title", as: "t" }, { column: "authors.name", as: "name" }] };
    expect(canvasDefinition(canvasFromDefinition(saved))).toEqual(saved);
  });

  it("proposes the key pair of each reference between tables on the canvas, once", () => {
    const state = { tables: ["books", "authors"], pairs: [], outputs: [] };
    expect(proposedPairs(state, tables)).toEqual([["books.author_id", "authors.id"]]);
    expect(proposedPairs({ ...state, pairs: [["authors.id", "books.author_id"]] }, tables)).toEqual([]);
    expect(proposedPairs({ ...state, tables: ["books", "authors", "tags"] }, tables)).toEqual([["books.author_id", "authors.id"], ["tags.book_id", "books.id"]]);
  });
});

describe("left joins on the canvas", () => {
  const state = {
    tables: ["books", "authors", "categories"],
    pairs: [["books.author_id", "authors.id"], ["books.category_id", "categories.id"]] as [string, string][],
    outputs: [{ column: "books.title", as: "title" }],
    left: ["categories"],
  };

  it("marks the chosen table left and leaves the others inner (no type)", () => {
    expect(canvasDefinition(state)?.joins).toEqual([
      { table: "authors", on: [["books.author_id", "authors.id"]] },
      { table: "categories", on: [["books.category_id", "categories.id"]], type: "left" },
    ]);
  });

  it("a saved left join opens with its choice and writes LEFT JOIN in its SQL", () => {
    const definition = canvasDefinition(state)!;
    expect(canvasFromDefinition(definition).left).toEqual(["categories"]);
    expect(definitionSql(definition)).toContain("LEFT JOIN categories ON books.category_id = categories.id");
    expect(definitionSql(definition)).toContain("INNER JOIN authors ON");
  });
});
