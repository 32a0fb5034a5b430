// The filter grammar is one table (lib/schema/filter-operators.ts): the query parser accepts exactly the
// operators each column type allows, the OpenAPI lists exactly those parameters, and the dashboard's filter
// builder offers exactly those operators.
import { describe, expect, it } from "vitest";
import { parseReadQuery } from "../../lib/api/parse-query";
import { ApiError } from "../../lib/errors";
import { listParameters } from "../../lib/openapi/list-parameters";
import { TYPE_SPECS } from "../../lib/schema/column-types";
import { FILTER_OPERATORS, filterParamName } from "../../lib/schema/filter-operators";
import { COLUMN_TYPES, type ColumnDef, type TableDef } from "../../lib/schema/types";
import { operatorsFor } from "../../components/data/build-query";

const column = (name: string, type: ColumnDef["type"]): ColumnDef =>
  ({ name, type, nullable: true, unique: false, ...(type === "dropdown" ? { options: ["a", "b"] } : {}), ...(type === "reference" ? { references: "t" } : {}) }) as ColumnDef;

const tableOf = (columns: ColumnDef[]): TableDef => ({ id: 1, name: "t", columns });

const documented = (table: TableDef) =>
  new Set(listParameters(table).flatMap((p) => (typeof p.name === "string" ? [p.name] : [])));

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? (err.errors?.[0]?.code as string) : "thrown";
  }
  return undefined;
};

describe("filter operators: parser, OpenAPI and dashboard read one table", () => {
  it.each(COLUMN_TYPES.filter((t) => t !== "password"))("%s: every allowed operator is parsed, documented and offered; the others are refused", (type) => {
    const col = column("c", type);
    const table = tableOf([col]);
    const docs = documented(table);
    const allowed = TYPE_SPECS[type].ops;
    expect(operatorsFor(type).map((o) => o.op)).toEqual(FILTER_OPERATORS.map((o) => o.op).filter((op) => allowed.includes(op)));
    for (const { op } of FILTER_OPERATORS) {
      const param = filterParamName("c", op);
      const code = refusal(() => parseReadQuery(new URLSearchParams([[param, "x"]]), new Map([["c", col]])));
      if (allowed.includes(op)) {
        expect(docs.has(param), `${param} documented`).toBe(true);
        expect(code, `${param} parsed as a known filter`).not.toBe("unsupported_filter");
      } else {
        expect(docs.has(param), `${param} not documented`).toBe(false);
        expect(code, `${param} refused`).toBe("unsupported_filter");
      }
    }
  });

  it("an exact column name wins over a suffix, in the parser and in the docs alike", () => {
    const price = column("price", "int");
    const priceGt = column("price_gt", "int");
    const query = parseReadQuery(new URLSearchParams([["price_gt", "5"]]), new Map([["price", price], ["price_gt", priceGt]]));
    expect(query.filters).toEqual([{ column: priceGt, op: "eq", value: 5 }]);
    const params = listParameters(tableOf([price, priceGt])).filter((p) => p.name === "price_gt");
    expect(params).toHaveLength(1);
    expect(params[0].description).toMatch(/^`price_gt` equals/);
  });
});
