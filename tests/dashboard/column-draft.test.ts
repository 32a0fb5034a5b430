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
