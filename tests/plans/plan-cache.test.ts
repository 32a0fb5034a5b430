// A database's schema and its owner's plan rate are cached apart: changing a plan updates the rate every
// database of that owner is served with, and keeps each cached schema (its tables need not be read again);
// a change of the database's own schema still drops its entry. Each case first catches up with the metadata
// version (app.sync), as a request does: without a Redis link a MariaDB process still clears every cache when
// that version moves (the fallback for missed events), so the cases look at what the events alone drop.
import { beforeAll, describe, expect, it } from "vitest";
import { loadDatabase, loadSchema } from "../../lib/meta/load-schema";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";
import { createOwner, type Owner, putPlan } from "../limits/limits-fixture";

describe.each(ENGINES)("schema and plan caches (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  const plan = `cached_${engine}`;
  let owner: Owner;

  beforeAll(async () => {
    await putPlan(ctx.h, plan, 50);
    owner = await createOwner(ctx.h, { plan, databases: 2 });
  });

  it("a plan change keeps every cached schema of the owner and updates the rate they are served with", async () => {
    await ctx.h.app.sync();
    const before = await Promise.all(owner.dbs.map((db) => loadDatabase(ctx.h.app, db)));
    expect(before.map((s) => s?.requestsPerSecond)).toEqual([50, 50]);
    const cached = owner.dbs.map((db) => ctx.h.app.schemas.get(db));
    expect(cached.every(Boolean)).toBe(true);
    await putPlan(ctx.h, plan, 7);
    const after = await Promise.all(owner.dbs.map((db) => loadDatabase(ctx.h.app, db)));
    expect(after.map((s) => s?.requestsPerSecond)).toEqual([7, 7]);
    owner.dbs.forEach((db, i) => expect(ctx.h.app.schemas.get(db), db).toBe(cached[i]));
    expect(after[0]?.schema.tables).toBe(before[0]?.schema.tables);
  });

  it("a schema change drops that database's entry only", async () => {
    const [changed, other] = owner.dbs;
    await ctx.h.app.sync();
    await loadSchema(ctx.h.app, changed);
    await loadSchema(ctx.h.app, other);
    const [entry, otherEntry] = [ctx.h.app.schemas.get(changed), ctx.h.app.schemas.get(other)];
    const reply = await ctx.h.request("POST", `/api/v1/databases/${changed}/tables/items/columns`, { key: owner.key, body: { name: "extra", type: "int" } });
    expect(reply.status, reply.text).toBe(201);
    const reloaded = await loadSchema(ctx.h.app, changed);
    expect(ctx.h.app.schemas.get(changed)).not.toBe(entry);
    expect(reloaded?.tables.get("items")?.columns.map((c) => c.name)).toContain("extra");
    expect(ctx.h.app.schemas.get(other)).toBe(otherEntry);
  });

  it("the same loaded database is answered while neither the schema nor the plan changes", async () => {
    const [db] = owner.dbs;
    expect(await loadDatabase(ctx.h.app, db)).toBe(await loadDatabase(ctx.h.app, db));
  });
});
