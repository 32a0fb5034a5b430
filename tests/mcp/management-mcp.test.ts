// The management MCP server at /api/v1/mcp: tools whose schemas are the management routes' own, each call a
// request to that route with the caller's permissions. Builds a database with tables, a column, a join and
// row policies; pairs the allowed caller with refused ones (a key of another account, a key limited to one
// database, no credentials). Every engine through both adapters.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATRIX, useHarness } from "../contract/contract-helpers";
import { call, connectMcp, resultJson } from "./mcp-client";

describe.each(MATRIX)("management MCP server on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let client: Client;
  let instance: string;

  beforeAll(async () => {
    client = await connectMcp(ctx.h, "/api/v1/mcp", { authorization: `Bearer ${ctx.h.accountKey}` });
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists the management tools with schemas generated from the routes' bodies", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(["list_databases", "get_database", "create_database", "create_table", "add_column", "create_join", "set_policy", "run_ai_builder"]);
    const createTable = byName.create_table.inputSchema as any;
    expect(createTable.required).toEqual(["instance", "name"]);
    expect(createTable.properties.columns.items.properties.type.enum).toContain("dropdown");
    expect(byName.set_policy.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.list_databases.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("creates a database with tables, adds a column, a join and row policies", async () => {
    const made = await call(client, "create_database", {
      name: `MCP shop ${target.engine}`,
      tables: [
        { name: "customers", columns: [{ name: "email", type: "varchar", nullable: false, unique: true }] },
        { name: "orders", columns: [{ name: "customer_id", type: "reference", references: "customers" }, { name: "status", type: "dropdown", options: ["new", "paid"] }] },
      ],
    });
    expect(made.isError, JSON.stringify(made)).toBeFalsy();
    instance = resultJson(made).instance;
    const table = await call(client, "create_table", { instance, name: "notes", columns: [{ name: "body", type: "text" }] });
    expect(table.isError, JSON.stringify(table)).toBeFalsy();
    const column = await call(client, "add_column", { instance, table: "orders", name: "total", type: "decimal" });
    expect(resultJson(column)).toMatchObject({ name: "total", type: "decimal" });
    const join = await call(client, "create_join", {
      instance,
      name: "orders_with_customers",
      base: "orders",
      joins: [{ table: "customers", on: [["orders.customer_id", "customers.id"]] }],
      columns: [{ column: "orders.id", as: "id" }, { column: "orders.status", as: "status" }, { column: "customers.email", as: "email" }],
    });
    expect(join.isError, JSON.stringify(join)).toBeFalsy();
    const policy = await call(client, "set_policy", { instance, table: "notes", select: "true" });
    expect(resultJson(policy)).toEqual({ select: "true", insert: null, update: null, delete: null });
    const database = await ctx.h.request("GET", `/api/v1/databases/${instance}`);
    expect(database.body.tables.map((t: { name: string }) => t.name)).toEqual(["customers", "orders", "notes"]);
    expect(database.body.tables[1].columns.map((c: { name: string }) => c.name)).toEqual(["customer_id", "status", "total"]);
    const joined = await ctx.h.request("GET", `/v1/${instance}/orders_with_customers`);
    expect(joined.status, joined.text).toBe(200);
    const listed = resultJson(await call(client, "list_databases"));
    expect(listed.map((d: { instance: string }) => d.instance)).toContain(instance);
  });

  it("runs the AI builder (the offline planner here) and applies its plan", async () => {
    const build = await call(client, "run_ai_builder", { prompt: "A library with books and members who borrow books", apply: true });
    expect(build.isError, JSON.stringify(build).slice(0, 600)).toBeFalsy();
    const { database } = resultJson(build);
    expect(database).toEqual(expect.any(String));
    const tables = (await ctx.h.request("GET", `/api/v1/databases/${database}`)).body.tables.map((t: { name: string }) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["books", "members"]));
  });

  it("answers bad input as an error result naming it, creating nothing", async () => {
    const bad = await call(client, "create_table", { instance, name: "bad", columns: [{ name: "x", type: "colour" }] });
    expect(bad.isError).toBe(true);
    expect(resultJson(bad)).toMatchObject({ error: "validation_failed", errors: [expect.objectContaining({ field: "columns[0].type" })] });
    const missing = await call(client, "add_column", { instance, name: "y", type: "int" });
    expect(resultJson(missing)).toMatchObject({ error: "validation_failed", errors: [expect.objectContaining({ field: "table" })] });
    const reserved = await call(client, "create_table", { instance, name: "mcp" });
    expect(resultJson(reserved)).toMatchObject({ error: "validation_failed", errors: [expect.objectContaining({ field: "name", code: "reserved_name" })] });
    const unknown = await call(client, "drop_database", { instance });
    expect([unknown.isError, resultJson(unknown).error]).toEqual([true, "not_found"]);
    const tables = (await ctx.h.request("GET", `/api/v1/databases/${instance}`)).body.tables.map((t: { name: string }) => t.name);
    expect(tables).toEqual(["customers", "orders", "notes"]);
  });

  it("should block a key of another account from changing this database", async () => {
    const other = await ctx.h.createAccount();
    const stranger = await connectMcp(ctx.h, "/api/v1/mcp", { "x-api-key": other.key });
    try {
      const refused = await call(stranger, "create_table", { instance, name: "intruder" });
      expect(refused.isError).toBe(true);
      expect(resultJson(refused)).toMatchObject({ error: "not_found", message: `Database "${instance}" was not found.` });
      const own = await call(stranger, "create_database", { name: "Theirs" });
      expect(own.isError, JSON.stringify(own)).toBeFalsy();
    } finally {
      await stranger.close();
    }
    const tables = (await ctx.h.request("GET", `/api/v1/databases/${instance}`)).body.tables.map((t: { name: string }) => t.name);
    expect(tables).not.toContain("intruder");
  });

  it("should block a key limited to one database from creating databases, and allow it its own database", async () => {
    const key = await ctx.h.request("POST", "/api/v1/keys", { body: { name: "one db", database: instance } });
    expect(key.status, key.text).toBe(201);
    const limited = await connectMcp(ctx.h, "/api/v1/mcp", { "x-api-key": key.body.key });
    try {
      const refused = await call(limited, "create_database", { name: "Elsewhere" });
      expect(resultJson(refused)).toMatchObject({ error: "forbidden" });
      const allowed = await call(limited, "add_column", { instance, table: "notes", name: "pinned", type: "boolean" });
      expect(allowed.isError, JSON.stringify(allowed)).toBeFalsy();
    } finally {
      await limited.close();
    }
  });

  it("counts the plan's database quota: past it, create_database is an error result quota_exceeded and creates nothing", async () => {
    const plan = { max_databases: 1, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: null };
    expect((await ctx.h.request("PUT", "/api/v1/plans/one_db", { body: plan })).status).toBe(200);
    const { accountId, key } = await ctx.h.createAccount();
    expect((await ctx.h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan: "one_db" } })).status).toBe(200);
    const limited = await connectMcp(ctx.h, "/api/v1/mcp", { "x-api-key": key });
    try {
      expect((await call(limited, "create_database", { name: "First" })).isError).toBeFalsy();
      const second = await call(limited, "create_database", { name: "Second" });
      expect(second.isError).toBe(true);
      expect(resultJson(second)).toMatchObject({ error: "quota_exceeded", quota: { kind: "databases", limit: 1, used: 1 } });
      expect(resultJson(await call(limited, "list_databases")).map((d: { name: string }) => d.name)).toEqual(["First"]);
    } finally {
      await limited.close();
    }
  });

  it("answers 401 to a caller without credentials, before any MCP", async () => {
    const reply = await ctx.h.request("POST", "/api/v1/mcp", { key: null, headers: { accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect([reply.status, reply.body.error]).toEqual([401, "unauthorized"]);
  });
});
