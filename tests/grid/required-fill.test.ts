// Making a column required when some rows are empty: the 422 on `nullable` says how many, and `fill` in the
// same PATCH gives those rows a value in one change (the refused cases leave every row and the column as they were).
import { beforeEach, describe, expect, it } from "vitest";
import { createDatabase, expectError, insert, list, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";

describe.each(ENGINES)("required with a fill value on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance = "";
  const column = (name: string) => `/api/v1/databases/${instance}/tables/people/columns/${name}`;
  const people = async () => list(ctx.h, `/v1/${instance}/people?_sort=id`);
  const columnDef = async (name: string) =>
    (await ctx.h.request("GET", `/api/v1/databases/${instance}/tables/people`)).body.columns.find((c: { name: string }) => c.name === name);

  beforeEach(async () => {
    instance = await createDatabase(ctx.h, "Fill", [
      { name: "teams", columns: [{ name: "title", type: "varchar" }] },
      { name: "people", columns: [{ name: "nick", type: "varchar", length: 20 }, { name: "age", type: "int" }, { name: "team_id", type: "reference", references: "teams" }] },
    ]);
    await insert(ctx.h, `/v1/${instance}/teams`, [{ title: "red" }]);
    await insert(ctx.h, `/v1/${instance}/people`, [{ nick: "ann", age: 30, team_id: 1 }, { nick: null, age: null }, { nick: null, age: 41 }]);
  });

  it("without fill: 422 on nullable naming the empty rows; nothing changes", async () => {
    const reply = await ctx.h.request("PATCH", column("nick"), { body: { nullable: false } });
    expectError(reply, 422, "validation_failed", ["nullable"]);
    expect(reply.body.errors[0].message).toMatch(/^2 rows have no value in "nick": ids 2, 3/);
    expect((await columnDef("nick")).nullable).toBe(true);
  });

  it("with fill: the empty rows get the value, the others keep theirs, and the column is required", async () => {
    const reply = await ctx.h.request("PATCH", column("nick"), { body: { nullable: false, fill: "unknown" } });
    expect(reply.status, reply.text).toBe(200);
    expect((await people()).map((p) => p.nick)).toEqual(["ann", "unknown", "unknown"]);
    expect((await columnDef("nick")).nullable).toBe(false);
    expectError(await ctx.h.request("POST", `/v1/${instance}/people`, { body: { age: 1 } }), 422, "validation_failed", ["nick"]);
  });

  it("fills numbers and references (an existing row only)", async () => {
    expect((await ctx.h.request("PATCH", column("age"), { body: { nullable: false, fill: 0 } })).status).toBe(200);
    expect((await people()).map((p) => p.age)).toEqual([30, 0, 41]);
    expectError(await ctx.h.request("PATCH", column("team_id"), { body: { nullable: false, fill: 9 } }), 422, "validation_failed", ["fill"]);
    expect((await ctx.h.request("PATCH", column("team_id"), { body: { nullable: false, fill: 1 } })).status).toBe(200);
    expect((await people()).map((p) => p.team_id)).toEqual([1, 1, 1]);
  });

  it("refuses a fill that does not fit the type, or one that breaks unique, leaving the rows untouched", async () => {
    expectError(await ctx.h.request("PATCH", column("age"), { body: { nullable: false, fill: "old" } }), 422, "validation_failed", ["fill"]);
    expectError(await ctx.h.request("PATCH", column("nick"), { body: { nullable: false, fill: "x".repeat(21) } }), 422, "validation_failed", ["fill"]);
    expectError(await ctx.h.request("PATCH", column("nick"), { body: { nullable: false, unique: true, fill: "same" } }), 422, "validation_failed", ["unique"]);
    expect((await people()).map((p) => [p.nick, p.age])).toEqual([["ann", 30], [null, null], [null, 41]]);
    expect(await columnDef("nick")).toMatchObject({ nullable: true, unique: false });
  });
});
