// The data MCP server under row policies: a JWT user's tools see only the tables its policies open, its reads
// only the rows its select policy shows, and its writes reach only its own rows; the secret key, the server
// role, sees and reaches everything. Pairs per caller kind, on every engine (one adapter: the policies are
// the data API's, exercised through both adapters by tests/security).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { list, useHarness } from "../contract/contract-helpers";
import { enableAuth, type Fixture, makeFixture } from "../security/security-fixture";
import { call, connectMcp, resultJson } from "./mcp-client";

describe.each(ENGINES)("data MCP server under row policies on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let f: Fixture;
  let asKey: Client;
  let asA: Client;

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `mcp rls ${engine}`);
    asKey = await connectMcp(ctx.h, `/v1/${f.db}/mcp`, { "x-api-key": ctx.h.accountKey });
    asA = await connectMcp(ctx.h, `/v1/${f.db}/mcp`, { authorization: `Bearer ${f.userA.token}` });
  });
  afterAll(async () => {
    await asKey?.close();
    await asA?.close();
  });

  const titles = async (client: Client, args: Record<string, unknown> = {}) =>
    resultJson(await call(client, "query_rows", { table: "notes", _select: "title", ...args })).map((r: { title: string }) => r.title).sort();

  it("should allow the secret key every row", async () => {
    expect(await titles(asKey)).toEqual(["alpha one", "alpha public", "alpha three", "alpha two", "bravo one secret", "bravo public", "bravo two secret"]);
  });

  it("should block a JWT user from rows its select policy hides, in lists, counts and by id", async () => {
    expect(await titles(asA)).toEqual(["alpha one", "alpha public", "alpha three", "alpha two", "bravo public"]);
    expect(await titles(asA, { filters: { title_like: "bravo" } })).toEqual(["bravo public"]);
    expect(resultJson(await call(asA, "aggregate", { table: "notes" }))).toEqual([{ count: 5 }]);
    const hidden = await call(asA, "get_row", { table: "notes", id: f.notes.b1 });
    expect(hidden.isError).toBe(true);
    expect(resultJson(hidden).error).toBe("not_found");
    expect(resultJson(await call(asKey, "get_row", { table: "notes", id: f.notes.b1 })).title).toBe("bravo one secret");
  });

  it("shows a JWT user only the tables its policies open; the key sees them all", async () => {
    const names = async (client: Client) => resultJson(await call(client, "list_tables")).map((t: { name: string }) => t.name);
    expect(await names(asKey)).toEqual(["users", "notes", "secrets"]);
    expect(await names(asA)).toEqual(["users", "notes"]);
    const { tools } = await asA.listTools();
    const query = tools.find((t) => t.name === "query_rows")!.inputSchema as unknown as { properties: { table: { enum: string[] } } };
    expect(query.properties.table.enum).toEqual(["users", "notes"]);
    const closed = await call(asA, "query_rows", { table: "secrets" });
    expect([closed.isError, resultJson(closed).error]).toEqual([true, "forbidden"]);
  });

  it("should block a JWT user's writes to other users' rows and allow them on its own", async () => {
    const made = resultJson(await call(asA, "create_rows", { table: "notes", rows: [{ title: "alpha new" }] }));
    expect(made[0]).toMatchObject({ title: "alpha new", owner_id: f.userA.id });
    expect(resultJson(await call(asA, "update_rows", { table: "notes", filters: { title_like: "public" }, values: { rank: 99 } }))).toEqual({ affected: 1 });
    const theirs = await call(asA, "update_rows", { table: "notes", id: f.notes.bp, values: { rank: 99 } });
    expect(theirs.isError).toBe(true);
    expect(resultJson(await call(asA, "delete_rows", { table: "notes", filters: { title_like: "bravo" } }))).toEqual({ affected: 0 });
    const rows = await list(ctx.h, `/v1/${f.db}/notes?rank=99&_select=title`);
    expect(rows.map((r) => r.title)).toEqual(["alpha public"]);
    expect(await list(ctx.h, `/v1/${f.db}/notes?title_like=bravo`)).toHaveLength(3);
  });

  it("should allow a browser agent of an allowed origin (CORS on preflight and answers) and block other origins", async () => {
    await enableAuth(ctx.h, f.db, { cors_origins: ["https://app.example"] });
    const preflight = (origin: string) =>
      ctx.h.request("OPTIONS", `/v1/${f.db}/mcp`, { key: null, headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, mcp-protocol-version" } });
    const allowed = await preflight("https://app.example");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    expect(allowed.headers.get("allow")).toBe("POST, OPTIONS");
    expect((await preflight("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
    const rpc = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "query_rows", arguments: { table: "notes", _select: "title" } } };
    const post = (origin: string) =>
      ctx.h.request("POST", `/v1/${f.db}/mcp`, { key: null, headers: { origin, authorization: `Bearer ${f.userB.token}`, accept: "application/json, text/event-stream" }, body: rpc });
    const answer = await post("https://app.example");
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(JSON.parse(answer.body.result.content[0].text).map((r: { title: string }) => r.title).sort()).toEqual(["alpha public", "bravo one secret", "bravo public", "bravo two secret"]);
    expect((await post("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
  });
});
