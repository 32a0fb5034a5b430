// `tabula mcp`, the stdio bridge, spawned as a process and driven by the SDK's client over stdio against a real
// server on loopback: a database's tools through it, and a refused key reported to the client, not swallowed.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { resultJson } from "./mcp-client";

const BIN = path.resolve(import.meta.dirname, "../../bin/tabula.mjs");

describe("tabula mcp (stdio bridge)", () => {
  const ctx = useHarness({ engine: "sqlite", adapter: "node" });

  const bridge = (args: string[]) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--url", ctx.h.baseUrl, ...args], stderr: "pipe" });
    return { client: new Client({ name: "bridge-test", version: "1.0.0" }), transport };
  };

  it("relays a database's tools: list_tables through the bridge", async () => {
    const db = await createDatabase(ctx.h, "bridge", [{ name: "tasks", columns: [{ name: "title", type: "varchar" }] }]);
    const { client, transport } = bridge(["--key", ctx.h.accountKey, "--db", db]);
    await client.connect(transport);
    try {
      const tables = resultJson(await client.callTool({ name: "list_tables", arguments: {} }));
      expect(tables).toEqual([{ name: "tasks", kind: "table", columns: [{ name: "title", type: "varchar" }] }]);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("create_rows");
    } finally {
      await client.close();
    }
  });

  it("should block a wrong key: the client's initialize fails naming the 401", async () => {
    const { client, transport } = bridge(["--key", "sk_not_a_real_key"]);
    await expect(client.connect(transport)).rejects.toThrow(/401|not valid/);
    await client.close();
  });
});
