// Workspace members through the MCP servers: a viewer's key reads through the data tools but may not write, and
// may not change the schema through the management tools; an editor's key may do both. The roles are the
// APIs' own (lib/teams), reached through the same handlers. Pairs per role, on every engine.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";
import { type Account, addMember, newAccount } from "../teams/team-fixture";
import { call, connectMcp, resultJson } from "./mcp-client";

describe.each(ENGINES)("MCP servers for workspace members on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance: string;
  let owner: Account;
  const clients: Record<"viewer" | "editor", { data: Client; management: Client }> = {} as never;

  beforeAll(async () => {
    owner = await newAccount(ctx.h, "team");
    const db = await ctx.h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Team data", tables: [{ name: "items", columns: [{ name: "label", type: "varchar" }] }] } });
    expect(db.status, db.text).toBe(201);
    instance = db.body.instance;
    await ctx.h.request("POST", `/v1/${instance}/items`, { key: owner.key, body: { label: "seeded" } });
    for (const role of ["viewer", "editor"] as const) {
      const member = await addMember(ctx.h, owner, role);
      clients[role] = {
        data: await connectMcp(ctx.h, `/v1/${instance}/mcp`, { "x-api-key": member.key }),
        management: await connectMcp(ctx.h, "/api/v1/mcp", { "x-api-key": member.key }),
      };
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of Object.values(clients)) await Promise.all([c.data.close(), c.management.close()]);
  });

  it("should allow a viewer to read and block its writes, leaving nothing behind", async () => {
    const rows = resultJson(await call(clients.viewer.data, "query_rows", { table: "items" }));
    expect(rows.map((r: { label: string }) => r.label)).toEqual(["seeded"]);
    const write = await call(clients.viewer.data, "create_rows", { table: "items", rows: [{ label: "by viewer" }] });
    expect(write.isError).toBe(true);
    expect(resultJson(write)).toMatchObject({ error: "forbidden" });
    const column = await call(clients.viewer.management, "add_column", { instance, table: "items", name: "extra", type: "int" });
    expect(resultJson(column)).toMatchObject({ error: "forbidden", message: "Your role on this database does not include database:write." });
    const listed = await ctx.h.request("GET", `/v1/${instance}/items`, { key: owner.key });
    expect(listed.body.map((r: { label: string }) => r.label)).toEqual(["seeded"]);
  });

  it("should allow an editor to write rows and change the schema", async () => {
    const write = await call(clients.editor.data, "create_rows", { table: "items", rows: [{ label: "by editor" }] });
    expect(resultJson(write)).toEqual([expect.objectContaining({ label: "by editor" })]);
    const column = await call(clients.editor.management, "add_column", { instance, table: "items", name: "extra", type: "int" });
    expect(resultJson(column)).toMatchObject({ name: "extra", type: "int" });
  });
});
