// The schema editor's column form turns its draft into the API's column object: `searchable` goes along for text
// types and is sent as false for the others, so a type change away from text turns it off instead of a 422.
import { describe, expect, it } from "vitest";
import type { Column } from "../../components/api/types";
import { draftFromColumn, newColumnDraft, toColumnInput } from "../../components/schema/column-draft";

describe("the column form's searchable checkbox", () => {
  it("sends searchable for varchar and text as checked", () => {
    expect(toColumnInput(newColumnDraft({ name: "title", type: "varchar", searchable: true })).searchable).toBe(true);
    expect(toColumnInput(newColumnDraft({ name: "body", type: "text", searchable: false })).searchable).toBe(false);
  });

  it("sends false for a type that cannot be searched, whatever the draft says", () => {
    expect(toColumnInput(newColumnDraft({ name: "n", type: "int", searchable: true })).searchable).toBe(false);
  });

  it("an edited column starts from its stored value", () => {
    const column = { name: "title", type: "varchar", nullable: true, unique: false, index: false, searchable: true, mysql_type: "VARCHAR(255)" } as Column;
    expect(draftFromColumn(column).searchable).toBe(true);
    expect(draftFromColumn({ ...column, searchable: false }).searchable).toBe(false);
  });
});

describe("the column form's file options", () => {
  it("sends multiple, public, max_size and the typed lists as arrays, and no default", () => {
    const draft = newColumnDraft({ name: "photo", type: "file", multiple: true, isPublic: true, maxSize: "5242880", accept: "image/*, application/pdf", thumbs: "100x100 400x0", defaultText: "x" });
    expect(toColumnInput(draft)).toMatchObject({ type: "file", multiple: true, public: true, max_size: 5242880, accept: ["image/*", "application/pdf"], thumbs: ["100x100", "400x0"] });
    expect(toColumnInput(draft)).not.toHaveProperty("default");
  });

  it("leaves empty lists and size out, and sends text the API must judge as typed", () => {
    const input = toColumnInput(newColumnDraft({ name: "doc", type: "file", maxSize: "lots" }));
    expect(input).not.toHaveProperty("accept");
    expect(input).not.toHaveProperty("thumbs");
    expect(input.max_size).toBe("lots");
  });

  it("an edited file column starts from its stored options; other types send none", () => {
    const column = { name: "photo", type: "file", nullable: true, unique: false, index: false, searchable: false, multiple: true, accept: ["image/*"], thumbs: ["100x100", "200x0"], max_size: 1000, public: true, mysql_type: "JSON" } as Column;
    expect(draftFromColumn(column)).toMatchObject({ multiple: true, isPublic: true, maxSize: "1000", accept: "image/*", thumbs: "100x100, 200x0" });
    expect(toColumnInput(newColumnDraft({ name: "n", type: "int", multiple: true }))).not.toHaveProperty("multiple");
  });
});

describe("the column form's index checkbox", () => {
  it("sends no index for a reference (always indexed) or a file column, and the checkbox for the others", () => {
    expect(toColumnInput(newColumnDraft({ name: "author_id", type: "reference", references: "authors", index: true }))).not.toHaveProperty("index");
    expect(toColumnInput(newColumnDraft({ name: "photo", type: "file", index: true }))).not.toHaveProperty("index");
    expect(toColumnInput(newColumnDraft({ name: "title", type: "varchar", index: true })).index).toBe(true);
  });
});
