// A create's stored row comes back from `INSERT … RETURNING` where the engine has it (SQLite; MariaDB ≥ 10.5),
// saving the read-back round trip; MySQL, which has none, reads the row back. tests/contract/types.test.ts
// checks that the reply equals GET by id and the list for every column type, on both engines.
import { describe, expect, it } from "vitest";
import { supportsInsertReturning } from "../../lib/db/engine";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "../contract/contract-helpers";

describe("which servers return the inserted row", () => {
  it("MariaDB from 10.5 does, older MariaDB and MySQL do not", () => {
    expect(supportsInsertReturning("10.11.9-MariaDB-0+deb12u1")).toBe(true);
    expect(supportsInsertReturning("10.5.0-MariaDB")).toBe(true);
    expect(supportsInsertReturning("11.4.2-MariaDB-log")).toBe(true);
    expect(supportsInsertReturning("10.4.34-MariaDB")).toBe(false);
    expect(supportsInsertReturning("8.0.36")).toBe(false);
    expect(supportsInsertReturning("8.4.0-commercial")).toBe(false);
  });
});

describe.each(ENGINES)("a create on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });

  it("takes the RETURNING path on the servers the suite runs on, and answers the stored row", async () => {
    const db = await createDatabase(ctx.h, "returning", [{ name: "items", columns: [{ name: "price", type: "decimal", precision: 8, scale: 2 }, { name: "tag", type: "varchar", default: "none" }] }]);
    const physical = (await ctx.h.app.engine.meta.selectFrom("databases").select("physical").where("instance", "=", db).executeTakeFirstOrThrow()).physical;
    expect(ctx.h.app.engine.userDb(physical).returning).toBe(true);
    const created = await ctx.h.request("POST", `/v1/${db}/items`, { body: [{ price: 1.5 }, { price: 2, tag: "x" }] });
    expect(created.status, created.text).toBe(201);
    const listed = await ctx.h.request("GET", `/v1/${db}/items?_sort=id`);
    expect(created.body).toEqual(listed.body);
    expect(created.body.map((r: { price: number; tag: string }) => [r.price, r.tag])).toEqual([[1.5, "none"], [2, "x"]]);
  });
});
