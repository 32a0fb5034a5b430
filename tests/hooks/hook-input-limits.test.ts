// The limits of a hook step live in the route's zod schema, so the management OpenAPI shows them (expression
// ≤ 2000 characters, assert message 1–500) and the API enforces exactly those, with the contract's codes.
import { beforeAll, describe, expect, it } from "vitest";
import { buildManagementOpenApi } from "../../lib/openapi/management-openapi";
import { expectError, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { hooksPath, makeShop } from "./hooks-fixture";

type Branch = { properties: Record<string, { maxLength?: number; minLength?: number }> };

describe("hook step limits in the management OpenAPI", () => {
  const doc = buildManagementOpenApi("http://tabula.test/api/v1") as { components: { schemas: Record<string, { anyOf: Branch[] }> } };
  const [set, assert] = doc.components.schemas.HookStep.anyOf;

  it("shows the expression and message lengths", () => {
    expect(set.properties.expr.maxLength).toBe(2000);
    expect(assert.properties.assert.maxLength).toBe(2000);
    expect(assert.properties.message).toMatchObject({ minLength: 1, maxLength: 500 });
  });
});

describe.each(ENGINES)("hook step limits enforced (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  beforeAll(async () => {
    db = await makeShop(ctx.h, "hook input limits");
  });
  const put = (hooks: unknown) => ctx.h.request("PUT", hooksPath(db, "products"), { body: hooks });
  const longExpr = (n: number) => `new.title + "${"x".repeat(n - 14)}"`;

  it.each([
    ["an expression of 2001 characters", { insert: [{ set: "slug", expr: longExpr(2001) }] }, "insert[0].expr", "invalid_expression"],
    ["an assert message of 501 characters", { update: [{ assert: "true", message: "m".repeat(501) }] }, "update[0].message", "invalid_message"],
    ["a blank assert message", { delete: [{ assert: "true", message: "  " }] }, "delete[0].message", "invalid_message"],
  ])("should block %s (422 naming it)", async (_what, hooks, field, code) => {
    const reply = await put(hooks);
    expectError(reply, 422, "validation_failed", [field]);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it.each([
    ["an expression of 2000 characters", { insert: [{ set: "note", expr: longExpr(2000) }] }],
    ["an assert message of 500 characters", { update: [{ assert: "true", message: "m".repeat(500) }] }],
  ])("should allow %s", async (_what, hooks) => {
    const reply = await put(hooks);
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  });
});
