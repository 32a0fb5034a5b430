// Management input is described once, by the routes' zod schemas: the services take the parsed value, so
// these refusals (and their codes) come from the schema, and the same limits appear in the management OpenAPI.
import { describe, expect, it } from "vitest";
import { buildManagementOpenApi } from "../../lib/openapi/management-openapi";
import { ENGINES } from "../helpers/harness";
import { createDatabase, expectError, useHarness } from "./contract-helpers";

type Props = Record<string, { maxLength?: number; minLength?: number; enum?: string[] }>;

describe("management input in the OpenAPI", () => {
  const schemas = (buildManagementOpenApi("http://tabula.test/api/v1") as { components: { schemas: Record<string, { properties: Props; additionalProperties?: boolean }> } }).components.schemas;

  it("shows the key name, database name and sign-up limits, and refuses unknown properties", () => {
    expect(schemas.KeyCreate.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(schemas.DatabasePatch.properties.name).toMatchObject({ minLength: 1, maxLength: 80 });
    expect(schemas.SettingsPatch.properties.signup.enum?.sort()).toEqual(["open", "operator"]);
    for (const name of ["KeyCreate", "DatabasePatch", "SettingsPatch"]) expect(schemas[name].additionalProperties, name).toBe(false);
  });
});

describe.each(ENGINES)("management input refusals (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });

  it.each([
    ["a blank key name", "POST", "/api/v1/keys", { name: "   " }, "name", "invalid_name"],
    ["a key name of 101 characters", "POST", "/api/v1/keys", { name: "k".repeat(101) }, "name", "too_long"],
    ["an unknown key property", "POST", "/api/v1/keys", { name: "k", scope: "all" }, "scope", "unknown_property"],
    ["a non-text key database", "POST", "/api/v1/keys", { database: 7 }, "database", "invalid_type"],
    ["an unknown sign-up mode", "PATCH", "/api/v1/settings", { signup: "invite" }, "signup", "invalid_value"],
    ["an unknown settings property", "PATCH", "/api/v1/settings", { theme: "dark" }, "theme", "unknown_property"],
  ])("should block %s (422 naming it)", async (_what, method, path, body, field, code) => {
    const reply = await ctx.h.request(method, path, { body });
    expectError(reply, 422, "validation_failed", [field]);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it.each([
    ["a blank database name", { name: "  " }, "name", "invalid_name"],
    ["an unknown database property", { name: "ok", instance: "other" }, "instance", "unknown_property"],
  ])("should block renaming with %s (422 naming it)", async (_what, body, field, code) => {
    const db = await createDatabase(ctx.h, "input");
    const reply = await ctx.h.request("PATCH", `/api/v1/databases/${db}`, { body });
    expectError(reply, 422, "validation_failed", [field]);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it("should allow a key with a trimmed name and a rename", async () => {
    const key = await ctx.h.request("POST", "/api/v1/keys", { body: { name: "  server  " } });
    expect(key.status, key.text).toBe(201);
    expect(key.body.name).toBe("server");
    const db = await createDatabase(ctx.h, "input");
    const renamed = await ctx.h.request("PATCH", `/api/v1/databases/${db}`, { body: { name: " Shop " } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe("Shop");
  });
});
