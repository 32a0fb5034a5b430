// An account password is at most 72 bytes in UTF-8 (bcrypt reads no further). The zod schema states it, so the
// refusal comes from the parse stage, names the field, and is the same for every way an account is made.
import { describe, expect, it } from "vitest";
import { buildManagementOpenApi } from "../../lib/openapi/management-openapi";
import { createAccount } from "../../lib/services/accounts/create-account";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";

const ACCENTED = "é".repeat(40); // 40 characters, 80 bytes
const ASCII_72 = "a".repeat(72);
const ASCII_73 = "a".repeat(73);

const tooLong = (field: string) => {
  const message = `${field} is at most 72 bytes in UTF-8 (bcrypt's limit)`;
  return { status: 422, body: { error: "validation_failed", message, errors: [{ field, code: "too_long", message }] } };
};

const email = () => `bytes-${Math.random().toString(36).slice(2, 10)}@example.com`;

describe("account passwords in the management OpenAPI document", () => {
  const schemas = (buildManagementOpenApi("http://tabula.test/api/v1") as { components: { schemas: Record<string, any> } }).components.schemas;

  it.each([
    ["AccountCreate", "password"],
    ["PasswordReset", "password"],
    ["PasswordChange", "new_password"],
  ])("%s.%s publishes 72 as its character bound and the byte rule in its description", (component, field) => {
    const property = schemas[component].properties[field];
    expect(property).toMatchObject({ type: "string", minLength: 8, maxLength: 72 });
    expect(property.description).toContain("at most 72 bytes in UTF-8");
  });
});

describe.each(ENGINES)("account password bytes (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  const outcome = async (method: string, path: string, body: unknown, key?: string) => {
    const reply = await ctx.h.request(method, path, { body, key });
    return { status: reply.status, body: reply.body };
  };

  it.each([
    ["40 × é (80 bytes)", ACCENTED],
    ["73 ASCII characters", ASCII_73],
  ])("should block adding an account whose password is %s (422 naming password)", async (_what, password) => {
    expect(await outcome("POST", "/api/v1/accounts", { email: email(), password })).toEqual(tooLong("password"));
  });

  it("should allow adding an account whose password is 72 ASCII characters (72 bytes)", async () => {
    const reply = await outcome("POST", "/api/v1/accounts", { email: email(), password: ASCII_72 });
    expect(reply.status).toBe(201);
  });

  it("refuses before the route authorizes: a non-operator's 80-byte password is the same 422, a valid one its 403", async () => {
    const { key } = await ctx.h.createAccount();
    expect(await outcome("POST", "/api/v1/accounts", { email: email(), password: ACCENTED }, key)).toEqual(tooLong("password"));
    expect((await outcome("POST", "/api/v1/accounts", { email: email(), password: ASCII_72 }, key)).status).toBe(403);
  });

  it("should block an 80-byte reset or new password (422 naming the field), and allow 72 ASCII characters", async () => {
    const { accountId, key } = await ctx.h.createAccount();
    expect(await outcome("POST", `/api/v1/accounts/${accountId}/password`, { password: ACCENTED })).toEqual(tooLong("password"));
    expect((await outcome("POST", `/api/v1/accounts/${accountId}/password`, { password: ASCII_72 })).status).toBe(200);
    expect(await outcome("PUT", "/api/v1/account/password", { current_password: ASCII_72, new_password: ACCENTED }, key)).toEqual(tooLong("new_password"));
    expect((await outcome("PUT", "/api/v1/account/password", { current_password: ASCII_72, new_password: ASCII_72 }, key)).status).toBe(204);
  });

  it("holds the command line and sign-up (createAccount) to the same schema", async () => {
    await expect(createAccount(ctx.h.app, { email: email(), password: ACCENTED })).rejects.toMatchObject({ status: 422, errors: tooLong("password").body.errors });
    const made = await createAccount(ctx.h.app, { email: `  ${email().toUpperCase()} `, password: ASCII_72 });
    expect(made.account.email).toMatch(/^bytes-[a-z0-9]+@example\.com$/);
  });
});
