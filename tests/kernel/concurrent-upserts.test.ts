// Upserts racing on one new key: the lookup locks the key (MariaDB's FOR UPDATE, SQLite's BEGIN IMMEDIATE), a
// lost race is re-run whole by the kernel, so exactly one request creates the row, every other merges into it,
// and none answers 500 or leaves a duplicate. Both engines.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, list, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { putHooks } from "../hooks/hooks-fixture";

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

describe.each(ENGINES)("concurrent upserts (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "upsert_races", [
      { name: "counters", columns: [{ name: "slug", type: "varchar", unique: true, nullable: false }, { name: "hits", type: "int", nullable: false, default: 0 }] },
    ]);
    await putHooks(ctx.h, db, "counters", { insert: [{ set: "hits", expr: "1" }], update: [{ set: "hits", expr: "old.hits + 1" }] });
  });

  it("100 concurrent upserts of one new key: one 201, every other a merge (or a retryable 409), one row counting each success", async () => {
    const replies = await Promise.all(
      Array.from({ length: 100 }, () =>
        ctx.h.request("POST", `/v1/${db}/counters?_on_conflict=slug`, { body: { slug: "home" }, headers: { prefer: "resolution=merge-duplicates" } }),
      ),
    );
    const statuses = tally(replies.map((r) => r.status));
    // A request may only lose by running out of retries (409 write_conflict, retryable); never 500, never a duplicate.
    expect(Object.keys(statuses).filter((s) => !["200", "201", "409"].includes(s)), JSON.stringify(statuses)).toEqual([]);
    expect(statuses[201]).toBe(1);
    for (const r of replies.filter((r) => r.status === 409)) expect(r.body).toMatchObject({ error: "write_conflict", retryable: true });
    const rows = await list(ctx.h, `/v1/${db}/counters`);
    expect(rows).toHaveLength(1);
    expect(rows[0].hits).toBe(statuses[201] + (statuses[200] ?? 0));
  });
});
