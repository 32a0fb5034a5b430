// The file column type through the management API: its options are checked at save (422 naming the option),
// refused on other types, shown back as saved; a file column takes no default or uniqueness, converts to no
// other type, and a pre hook cannot set it.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { cleanFileName, STORED_NAME, storedFileName } from "../../lib/files/safe-name";

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("the file column type on $engine", (target) => {
  const ctx = useHarness(target);
  let db: string;
  const columns = () => `/api/v1/databases/${db}/tables/things/columns`;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, `file column ${target.engine}`, [{ name: "things", columns: [{ name: "label", type: "varchar" }] }]);
  });

  it("saves a file column with its options and shows them back, with MySQL type JSON", async () => {
    const body = { name: "photo", type: "file", multiple: true, max_size: 5242880, accept: ["image/*", "application/pdf"], thumbs: ["100x100", "400x0", "200x200f"], public: true };
    const reply = await ctx.h.request("POST", columns(), { body });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toEqual({ ...body, nullable: true, unique: false, index: false, searchable: false, mysql_type: "JSON" });
  });

  it.each([
    [{ accept: ["Image/PNG"] }, "accept[0]", "invalid_value"],
    [{ accept: ["image"] }, "accept[0]", "invalid_value"],
    [{ thumbs: ["100"] }, "thumbs[0]", "invalid_value"],
    [{ thumbs: ["0x0"] }, "thumbs[0]", "invalid_value"],
    [{ thumbs: ["100x0f"] }, "thumbs[0]", "invalid_value"],
    [{ max_size: 0 }, "max_size", "out_of_range"],
    [{ thumbs: ["3000x100"] }, "thumbs[0]", "invalid_value"],
    [{ unique: true }, "unique", "not_applicable"],
    [{ default: { name: "x" } }, "default", "invalid_type"],
  ])("refuses %j on a file column (422 naming %s)", async (extra, field, code) => {
    const reply = await ctx.h.request("POST", columns(), { body: { name: "bad", type: "file", ...extra } });
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it.each(["multiple", "max_size", "accept", "thumbs", "public"])("refuses %s on a column that is not a file column", async (option) => {
    const value = { multiple: true, max_size: 10, accept: ["image/*"], thumbs: ["10x10"], public: true }[option];
    const reply = await ctx.h.request("POST", columns(), { body: { name: "notfile", type: "varchar", [option]: value } });
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field: option, code: "not_applicable" })]);
  });

  it("refuses to turn a file column into another type or another type into a file column while they hold values", async () => {
    const row = await ctx.h.request("POST", `/v1/${db}/things`, { body: { label: "x" } });
    expect(row.status).toBe(201);
    const toFile = await ctx.h.request("PATCH", `${columns()}/label`, { body: { type: "file" } });
    expect(toFile.status, toFile.text).toBe(422);
    expect(toFile.body.errors[0]).toMatchObject({ field: "type", code: "lossy_conversion" });
  });

  it("refuses a pre hook that sets a file column", async () => {
    const reply = await ctx.h.request("PUT", `/api/v1/databases/${db}/tables/things/hooks`, { body: { insert: [{ set: "photo", expr: "'x'" }] } });
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.errors[0]).toMatchObject({ field: "insert[0].set", code: "unknown_column" });
  });

  it("filters a file column with _null only", async () => {
    expect((await ctx.h.request("GET", `/v1/${db}/things?photo_null=true`)).status).toBe(200);
    const eq = await ctx.h.request("GET", `/v1/${db}/things?photo=x`);
    expect(eq.status).toBe(422);
  });
});

describe("stored file names", () => {
  it.each([
    ["../../etc/passwd", "passwd", ""],
    ["C:\\\\Users\\\\me\\\\cv.PDF", "cv", ".pdf"],
    ["evil\u202egnp.exe", "evil_gnp", ".exe"],
    ["\u0000\u0007", "file", ""],
    [".htaccess", "file", ".htaccess"],
    [`${"a".repeat(2000)}.png`, "a".repeat(40), ".png"],
    ["naïve café.jpeg", "naive_cafe", ".jpeg"],
  ])("%j → base %j, extension %j", (original, base, ext) => {
    expect(cleanFileName(original)).toEqual({ base, ext });
    const stored = storedFileName(original);
    expect(stored).toMatch(STORED_NAME);
    expect(stored.startsWith(`${base}_`)).toBe(true);
  });
});
