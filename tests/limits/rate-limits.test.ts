// The data API's rate limit over real HTTP, one process (PRODUCT "Plans, quotas, credits, rate limits"): an
// owner account gets its plan's requests_per_second in each one-second window, across all its databases;
// past it 429 rate_limited with Retry-After and the RateLimit headers. The operator is never limited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import {
  burst,
  createOwner,
  expectAllowed,
  expectRateLimited,
  freshWindow,
  type Owner,
  putPlan,
  rateState,
  setAccountPlan,
  statuses,
  times,
} from "./limits-fixture";

const descending = (values: number[]) => [...values].sort((a, b) => b - a);

describe.each(ENGINES)("data API rate limit on %s", (engine) => {
  let h: Harness;
  let owner: Owner;
  let other: Owner;
  let operatorDb = "";
  const get = (db: string, key: string | null, path = "items") => () => h.request("GET", `/v1/${db}/${path}`, { key });

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    await putPlan(h, "five", 5);
    owner = await createOwner(h, { plan: "five", databases: 2 });
    other = await createOwner(h);
    operatorDb = await createDatabase(h, "operator", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
  });

  afterAll(async () => {
    await h?.close();
  });

  it("allows exactly the plan's rate in one second; the rest are 429 with Retry-After and the RateLimit headers", async () => {
    await freshWindow();
    const replies = await burst(times(15, () => get(owner.dbs[0], owner.key)));
    expect(statuses(replies)).toEqual({ 200: 5, 429: 10 });
    const remaining = replies.filter((r) => r.status === 200).map((r) => expectAllowed(r, 5));
    expect(descending(remaining)).toEqual([4, 3, 2, 1, 0]);
    for (const reply of replies.filter((r) => r.status === 429)) expectRateLimited(reply, 5);
  });

  it("serves again once the window is over", async () => {
    await freshWindow();
    for (const left of [4, 3, 2, 1, 0]) expect(expectAllowed(await get(owner.dbs[0], owner.key)(), 5)).toBe(left);
    expectRateLimited(await get(owner.dbs[0], owner.key)(), 5);
    await freshWindow();
    expect(expectAllowed(await get(owner.dbs[0], owner.key)(), 5)).toBe(4);
  });

  it("counts all the owner's databases against one budget", async () => {
    await freshWindow();
    const replies = await burst(times(16, (i) => get(owner.dbs[i % 2], owner.key)));
    expect(statuses(replies)).toEqual({ 200: 5, 429: 11 });
    for (const reply of replies.filter((r) => r.status === 429)) expectRateLimited(reply, 5);

    await freshWindow();
    for (let i = 0; i < 5; i++) expectAllowed(await get(owner.dbs[1], owner.key)(), 5);
    expectRateLimited(await get(owner.dbs[0], owner.key)(), 5);
  });

  it("leaves another account's databases alone: they have their own plan's budget", async () => {
    await freshWindow();
    expect(statuses(await burst(times(10, () => get(owner.dbs[0], owner.key))))).toEqual({ 200: 5, 429: 5 });
    const replies = await burst(times(10, () => get(other.dbs[0], other.key)));
    expect(statuses(replies)).toEqual({ 200: 10 });
    expect(descending(replies.map((r) => expectAllowed(r, 10)))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expectRateLimited(await get(other.dbs[0], other.key)(), 10);
    expectRateLimited(await get(owner.dbs[1], owner.key)(), 5);
  });

  it("never limits the operator's databases and sends them no RateLimit headers", async () => {
    const replies = await burst(times(40, () => get(operatorDb, h.accountKey)));
    expect(statuses(replies)).toEqual({ 200: 40 });
    for (const reply of replies) {
      expect(reply.headers.get("ratelimit")).toBeNull();
      expect(reply.headers.get("ratelimit-policy")).toBeNull();
    }
  });

  it("counts /openapi.json, but not preflights or requests without a valid key", async () => {
    await freshWindow();
    const preflight = () => h.request("OPTIONS", `/v1/${owner.dbs[0]}/items`, { key: null, headers: { origin: "https://app.example.com", "access-control-request-method": "GET" } });
    const uncounted = await burst([...times(10, () => preflight), ...times(10, () => get(owner.dbs[0], null)), ...times(10, () => get(owner.dbs[0], "tbl_sk_wrong"))]);
    expect(statuses(uncounted)).toEqual({ 204: 10, 401: 20 });
    for (const reply of uncounted) expect(rateState(reply)).toBeUndefined();

    for (const left of [4, 3, 2, 1, 0]) expect(expectAllowed(await get(owner.dbs[0], owner.key, "openapi.json")(), 5)).toBe(left);
    expectRateLimited(await get(owner.dbs[0], owner.key)(), 5);
    expectRateLimited(await get(owner.dbs[1], owner.key, "openapi.json")(), 5);
  });

  it("applies a raised plan rate at the next request (PUT /plans/{name})", async () => {
    await putPlan(h, "raised", 5);
    const raised = await createOwner(h, { plan: "raised" });
    expect(statuses(await burst(times(8, () => get(raised.dbs[0], raised.key))))).toEqual({ 200: 5, 429: 3 });
    await putPlan(h, "raised", 50);
    const replies = await burst(times(20, () => get(raised.dbs[0], raised.key)));
    expect(statuses(replies)).toEqual({ 200: 20 });
    for (const reply of replies) expectAllowed(reply, 50);
  });

  it("applies a move to a bigger plan at the next request (PATCH /accounts/{id})", async () => {
    const moved = await createOwner(h, { plan: "five" });
    expect(statuses(await burst(times(8, () => get(moved.dbs[0], moved.key))))).toEqual({ 200: 5, 429: 3 });
    await setAccountPlan(h, moved.accountId, "pro");
    const replies = await burst(times(20, () => get(moved.dbs[0], moved.key)));
    expect(statuses(replies)).toEqual({ 200: 20 });
    for (const reply of replies) expectAllowed(reply, 100);
  });

  it("applies a lowered plan rate at the next request", async () => {
    await putPlan(h, "lowered", 50);
    const lowered = await createOwner(h, { plan: "lowered" });
    expect(statuses(await burst(times(10, () => get(lowered.dbs[0], lowered.key))))).toEqual({ 200: 10 });
    await putPlan(h, "lowered", 2);
    const replies = await burst(times(10, () => get(lowered.dbs[0], lowered.key)));
    expect(statuses(replies)).toEqual({ 200: 2, 429: 8 });
    for (const reply of replies.filter((r) => r.status === 429)) expectRateLimited(reply, 2);
  });
});
