// The plan's rate limit counts MCP tool calls as data API requests: one call, one request, in the same budget as
// the owner's plain HTTP requests; past it the call is an error result `rate_limited`, not a transport failure.
// Waits lane: it counts requests inside one-second windows, and mostly waits for them.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";
import { createOwner, freshWindow, type Owner, putPlan } from "../limits/limits-fixture";
import { call, connectMcp, resultJson } from "./mcp-client";

describe.each(ENGINES)("data MCP tool calls under the plan's rate on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let owner: Owner;
  let client: Client;

  beforeAll(async () => {
    await putPlan(ctx.h, "three", 3);
    owner = await createOwner(ctx.h, { plan: "three" });
    client = await connectMcp(ctx.h, `/v1/${owner.dbs[0]}/mcp`, { "x-api-key": owner.key });
  });
  afterAll(async () => {
    await client?.close();
  });

  it("should allow the plan's rate of tool calls and refuse the next one as an error result", async () => {
    await freshWindow();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await call(client, i === 0 ? "list_tables" : "query_rows", { ...(i === 0 ? {} : { table: "items" }) }));
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false]);
    const refused = await call(client, "query_rows", { table: "items" });
    expect(refused.isError).toBe(true);
    expect(resultJson(refused)).toMatchObject({ error: "rate_limited", message: expect.stringContaining("allows 3 requests per second") });
  });

  it("shares one budget with the owner's plain data API requests", async () => {
    await freshWindow();
    for (let i = 0; i < 3; i++) expect((await ctx.h.request("GET", `/v1/${owner.dbs[0]}/items`, { key: owner.key })).status).toBe(200);
    const refused = await call(client, "create_rows", { table: "items", rows: [{ label: "late" }] });
    expect(resultJson(refused).error).toBe("rate_limited");
    await freshWindow();
    const created = await call(client, "create_rows", { table: "items", rows: [{ label: "in time" }] });
    expect(resultJson(created)).toEqual([expect.objectContaining({ label: "in time" })]);
  });
});
