// Metadata transactions are retried whole after a serialization failure like data writes: the route's quota
// meter is applied again in the new transaction (the first one rolled back), and when the attempts run out the
// caller gets 409 write_conflict with retryable: true.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "../../lib/errors";
import { type Ctx, transact } from "../../lib/meta/context";
import { quotaMeter } from "../../lib/plans/quotas";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

const deadlock = () => Object.assign(new Error("Deadlock found when trying to get lock; try restarting transaction"), { errno: 1213, sqlState: "40001" });

describe.each(ENGINES)("metadata transaction retry (%s)", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => {
    await h?.close();
  });

  const ctxFor = (): Ctx => ({ app: h.app, actor: { accountId: h.accountId, isOperator: false, keyDatabaseId: null }, meter: quotaMeter("databases", h.accountId, "test") });

  it("runs the transaction again after a conflict, re-applying the quota meter, and keeps the second run's work", async () => {
    const ctx = ctxFor();
    const metered: boolean[] = [];
    const result = await transact(ctx, async (trx) => {
      metered.push(ctx.meter!.applied);
      await trx.updateTable("accounts").set({ email: `retried-${metered.length}@example.com` }).where("id", "=", h.accountId).execute();
      if (metered.length === 1) throw deadlock();
      return "saved";
    });
    expect(result).toBe("saved");
    expect(metered).toEqual([true, true]);
    expect(ctx.meter!.outcome).toBe("allowance");
    const row = await h.app.engine.meta.selectFrom("accounts").select("email").where("id", "=", h.accountId).executeTakeFirstOrThrow();
    expect(row.email).toBe("retried-2@example.com");
  });

  it("ends in 409 write_conflict (retryable) when every run loses, having saved nothing", async () => {
    const before = await h.app.engine.meta.selectFrom("accounts").select("email").where("id", "=", h.accountId).executeTakeFirstOrThrow();
    let runs = 0;
    const failure = await transact(ctxFor(), async (trx) => {
      runs++;
      await trx.updateTable("accounts").set({ email: "never@example.com" }).where("id", "=", h.accountId).execute();
      throw deadlock();
    }).catch((err: unknown) => err);
    expect(runs).toBe(5);
    expect(toErrorResponse(failure)).toMatchObject({ status: 409, body: { error: "write_conflict", retryable: true } });
    const after = await h.app.engine.meta.selectFrom("accounts").select("email").where("id", "=", h.accountId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});
