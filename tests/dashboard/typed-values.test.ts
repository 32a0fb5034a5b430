// The dashboard's form checks use the server's limits (lib/schema/value-checks.ts): a value the server would
// refuse is refused before sending, naming the field, and nothing typed is ever sent as null.
import { describe, expect, it } from "vitest";
import type { Column } from "../../components/api/types";
import { buildRecordBody, checkRecordValues, textToValue } from "../../components/data/record-values";
import { TYPE_SPECS } from "../../lib/schema/column-types";
import type { ColumnDef } from "../../lib/schema/types";
import { typedValue } from "../../lib/schema/typed-value";

const col = (c: Partial<Column> & Pick<Column, "name" | "type">): Column =>
  ({ nullable: true, unique: false, index: false, searchable: false, mysql_type: "", ...c }) as Column;

const REFUSED: [Partial<Column> & Pick<Column, "name" | "type">, string, string][] = [
  [{ name: "ratio", type: "float" }, "1e400", "not_finite"],
  [{ name: "ratio", type: "float" }, "-1e999", "not_finite"],
  [{ name: "qty", type: "int" }, "2147483648", "out_of_range"],
  [{ name: "qty", type: "int" }, "-2147483649", "out_of_range"],
  [{ name: "views", type: "bigint" }, "9007199254740993", "out_of_range"],
  [{ name: "views", type: "bigint" }, "99999999999999999999", "out_of_range"],
  [{ name: "views", type: "bigint" }, "1.5", "invalid_type"],
  [{ name: "author_id", type: "reference", references: "authors" }, "0", "out_of_range"],
  [{ name: "price", type: "decimal", precision: 10, scale: 2 }, "1.234", "too_many_decimals"],
  [{ name: "price", type: "decimal", precision: 10, scale: 2 }, "1e-21", "too_many_decimals"],
  [{ name: "price", type: "decimal", precision: 10, scale: 2 }, "100000000", "out_of_range"],
  [{ name: "price", type: "decimal", precision: 10, scale: 2 }, "1e400", "invalid_type"],
  [{ name: "meta", type: "json" }, '{"n": 1e400}', "not_finite"],
  [{ name: "born", type: "date" }, "2023-02-29", "invalid_date"],
  [{ name: "seen", type: "datetime" }, "2024-05-01 12:00", "invalid_datetime"],
  [{ name: "title", type: "varchar", length: 3 }, "four", "too_long"],
];

const ACCEPTED: [Partial<Column> & Pick<Column, "name" | "type">, string, unknown][] = [
  [{ name: "ratio", type: "float" }, "1.5e300", 1.5e300],
  [{ name: "qty", type: "int" }, "-2147483648", -2147483648],
  [{ name: "views", type: "bigint" }, "9007199254740991", 9007199254740991],
  [{ name: "price", type: "decimal", precision: 10, scale: 2 }, "99999999.99", 99999999.99],
  [{ name: "seen", type: "datetime" }, "2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00+02:00"],
  [{ name: "meta", type: "json" }, "[1, null]", [1, null]],
];

describe("values checked in the dashboard like the server checks them", () => {
  it.each(REFUSED)("%o typed as %s is refused with the server's code", (c, text, code) => {
    const check = typedValue(col(c), text);
    expect(check).toMatchObject({ ok: false, code });
  });

  it.each(REFUSED.filter(([c]) => !["json", "date", "datetime", "varchar"].includes(c.type)))("the server refuses %o = %s too", (c, text) => {
    // What a client would have sent before: the number JSON.parse makes of the text.
    expect(TYPE_SPECS[c.type].fromJson(Number(text), c as ColumnDef).ok).toBe(false);
  });

  it.each(ACCEPTED)("%o typed as %s is sent as the value the server accepts", (c, text, value) => {
    expect(textToValue(col(c), text)).toEqual({ value });
    const server = TYPE_SPECS[c.type].fromJson(value, c as ColumnDef);
    expect(server.ok).toBe(true);
  });

  it("a float of 1e400 is a field error named by the column, never a null in the body", () => {
    const columns = [col({ name: "ratio", type: "float" }), col({ name: "label", type: "varchar" })];
    const values = { ratio: "1e400", label: "x" };
    expect(checkRecordValues(columns, values)).toEqual({ ratio: '"ratio" must be a finite number (at most about 1.8e308 in magnitude)' });
    const { body, errors } = buildRecordBody(columns, values);
    expect(errors).toEqual({ ratio: '"ratio" must be a finite number (at most about 1.8e308 in magnitude)' });
    expect(body).toEqual({ label: "x" });
    expect(JSON.stringify(body)).not.toContain("null");
  });

  it("a bigint out of range is a field error before anything is sent", () => {
    const columns = [col({ name: "views", type: "bigint" })];
    expect(checkRecordValues(columns, { views: "9007199254740993" })).toEqual({ views: `"views" must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` });
  });

  it("only an emptied field becomes null, and only when the column allows it", () => {
    expect(textToValue(col({ name: "ratio", type: "float" }), "")).toEqual({ value: null });
    expect(checkRecordValues([col({ name: "ratio", type: "float", nullable: false })], { ratio: "" })).toEqual({ ratio: '"ratio" is required' });
  });
});
