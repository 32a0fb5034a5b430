// A write that loses a race past the server's retries answers 409 write_conflict (retryable): both OpenAPI
// documents declare it on every operation that writes, and on no read of the management API.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "./contract-helpers";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: { responses: Record<string, any> } };

const WRITES = ["post", "put", "patch", "delete"];

/** The 409 examples an operation documents (its own or through a $ref), by error code. */
const conflictExamples = (doc: Doc, op: { responses: Record<string, any> }) => {
  const response = op.responses["409"];
  if (!response) return [];
  const resolved = response.$ref ? doc.components.responses[response.$ref.split("/").pop()] : response;
  const content = resolved.content["application/json"];
  return content.examples ? Object.values(content.examples).map((e: any) => e.value) : [content.example];
};

const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe.each(ENGINES)("write_conflict in the OpenAPI documents (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let management: Doc;
  let data: Doc;

  beforeAll(async () => {
    const instance = await createDatabase(ctx.h, "races", [{ name: "items", columns: [{ name: "sku", type: "varchar", unique: true }] }]);
    const auth = { enabled: true, users_table: "items", login_column: "sku", password_column: "pw", signup: true };
    expect((await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/items/columns`, { body: { name: "pw", type: "password" } })).status).toBe(201);
    expect((await ctx.h.request("PUT", `/api/v1/databases/${instance}/auth`, { body: auth })).status).toBe(200);
    management = (await ctx.h.request("GET", "/api/v1/openapi.json")).body;
    data = (await ctx.h.request("GET", `/v1/${instance}/openapi.json`)).body;
  });

  it("declares 409 write_conflict (retryable) on every writing management route", () => {
    const writes = operations(management).filter((o) => WRITES.includes(o.method));
    expect(writes.length).toBeGreaterThan(40);
    for (const { path, method, op } of writes) {
      expect(conflictExamples(management, op), `${method} ${path}`).toContainEqual(expect.objectContaining({ error: "write_conflict", retryable: true }));
    }
  });

  it("declares no write_conflict on a management read", () => {
    for (const { path, method, op } of operations(management).filter((o) => o.method === "get")) {
      expect(conflictExamples(management, op).map((e) => e.error), `${method} ${path}`).not.toContain("write_conflict");
    }
  });

  it("declares 409 write_conflict (retryable) on every data write, sign-up included", () => {
    // The auth paths that write no row of the database (only the install's session and token tables) cannot meet it.
    const rowless = ["/auth/login", "/auth/refresh", "/auth/logout", "/auth/verify", "/auth/verify/resend", "/auth/password/forgot", "/auth/otp", "/auth/otp/verify"];
    const writes = operations(data).filter((o) => WRITES.includes(o.method) && !rowless.includes(o.path));
    expect(writes.map((o) => o.path)).toEqual(expect.arrayContaining(["/auth/signup", "/auth/password/reset"]));
    for (const { path, method, op } of writes) {
      expect(conflictExamples(data, op), `${method} ${path}`).toContainEqual(expect.objectContaining({ error: "write_conflict", retryable: true }));
    }
  });
});
