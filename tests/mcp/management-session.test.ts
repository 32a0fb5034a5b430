// The management MCP server for the dashboard's session: the cookie a sign-in makes is a caller like a key,
// and a write through it must come from this site's own pages, as every cookie-authenticated write of the
// management API must (a cross-origin write is refused as an error result, creating nothing). Node adapter
// with the real session resolver, as server.ts runs it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionResolver } from "../../lib/auth/resolve-session";
import { type CoreServer, listenCore } from "../helpers/core-server";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";
import { sessionHeaders } from "../permissions/matrix-fixture";
import { call, connectMcp, resultJson } from "./mcp-client";

describe.each(ENGINES)("management MCP server with a dashboard session on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let server: CoreServer | undefined;
  let base: string;

  beforeAll(async () => {
    server = await listenCore(ctx.h.app, { session: createSessionResolver(ctx.h.app) });
    base = server.baseUrl;
  });
  afterAll(async () => {
    await server?.close();
  });

  const names = async () => ((await ctx.h.request("GET", "/api/v1/databases")).body as { name: string }[]).map((d) => d.name);

  it("should allow the session's own site to create a database", async () => {
    const client = await connectMcp(ctx.h, "/api/v1/mcp", { ...(await sessionHeaders(ctx.h, ctx.h.accountId)), origin: base }, base);
    try {
      const made = await call(client, "create_database", { name: "By session" });
      expect(made.isError, JSON.stringify(made)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(await names()).toContain("By session");
  });

  it("should block a session write from another origin, creating nothing", async () => {
    const client = await connectMcp(ctx.h, "/api/v1/mcp", { ...(await sessionHeaders(ctx.h, ctx.h.accountId)), origin: "https://evil.example" }, base);
    try {
      const refused = await call(client, "create_database", { name: "Cross site" });
      expect(refused.isError).toBe(true);
      expect(resultJson(refused).error).toBe("unauthorized");
    } finally {
      await client.close();
    }
    expect(await names()).not.toContain("Cross site");
  });
});
