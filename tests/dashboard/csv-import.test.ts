// CSV import as the dashboard runs it, against the real data API: headers match columns whatever their case and
// spacing, and all-or-nothing reports the same problems as valid-rows-only (missing references included).
import { beforeAll, describe, expect, it } from "vitest";
import type { DataRecord, Table } from "../../components/api/types";
import { csvToRecords, defaultMapping, parseCsv } from "../../components/data/csv";
import { importRows, referenceProblems } from "../../components/data/csv-transfer";
import { createDatabase, insert, list, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";

const TABLES = [
  { name: "categories", columns: [{ name: "name", type: "varchar", nullable: false }] },
  { name: "items", columns: [{ name: "first_name", type: "varchar" }, { name: "qty", type: "int" }, { name: "category_id", type: "reference", references: "categories" }] },
];

const CSV = "First Name,QTY,category id\nA,1,1\nB,x,1\nC,3,99\nD,4,1\n";

describe("CSV headers", () => {
  it("match columns case- and space-insensitively, an exact name first", () => {
    const columns = [{ name: "first_name" }, { name: "qty" }, { name: "category_id" }, { name: "notes" }];
    expect(defaultMapping(["First Name", "QTY", "category id", "Notes", "notes"], columns)).toEqual({ first_name: "First Name", qty: "QTY", category_id: "category id", notes: "notes" });
  });
});

describe.each(ENGINES)("CSV import reports on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance = "";
  let table: Table;
  const read = async (t: string, q: string) => list(ctx.h, `/v1/${instance}/${t}?${q}`) as Promise<DataRecord[]>;
  const post = async (bodies: Record<string, unknown>[]) => {
    const reply = await ctx.h.request("POST", `/v1/${instance}/items`, { body: bodies });
    if (reply.status !== 201) throw Object.assign(new Error(reply.body.message), reply.body);
    return reply.body;
  };
  const plan = async () => {
    const cells = parseCsv(CSV);
    const { records, problems } = csvToRecords(cells, defaultMapping(cells[0].map(String), table.columns), table.columns);
    return { records, found: [...problems, ...(await referenceProblems(records, table, read))].sort((a, b) => a.line - b.line) };
  };

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "Csv", TABLES);
    await insert(ctx.h, `/v1/${instance}/categories`, { name: "Tools" });
    table = (await ctx.h.request("GET", `/api/v1/databases/${instance}/tables/items`)).body as Table;
  });

  it("lists the same problems in both modes, the missing reference included", async () => {
    const { records, found } = await plan();
    const all = await importRows(records, found, "all", post);
    expect(all.imported).toBe(0);
    expect(await list(ctx.h, `/v1/${instance}/items`)).toEqual([]);
    const valid = await importRows(records, found, "valid", post);
    expect(valid.imported).toBe(2);
    expect(all.problems).toEqual(valid.problems);
    expect(valid.problems).toEqual([
      { line: 3, field: "qty", message: '"qty" must be a whole number' },
      { line: 4, field: "category_id", message: "no row 99 in categories" },
    ]);
    expect((await list(ctx.h, `/v1/${instance}/items?_sort=id`)).map((r) => r.first_name)).toEqual(["A", "D"]);
  });
});
