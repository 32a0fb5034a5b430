// Path parameters are parsed by their zod schemas (lib/contract/schemas/path-params.ts) with the body and query,
// before the route authorizes: a segment that cannot name anything is refused there, naming the parameter.
import { beforeAll, describe, expect, it } from "vitest";
import { buildManagementOpenApi } from "../../lib/openapi/management-openapi";
import { PLAN_NAME_RE } from "../../lib/plans/default-plans";
import { INSTANCE_RE } from "../../lib/schema/names";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "./contract-helpers";

const ID_RULE = (name: string) => `${name} must be an id: a whole number from 1`;
const NAME_RULE = (name: string) => `${name} must be a name: a lowercase letter, then a-z, 0-9 or _ (at most 63 characters)`;
const INSTANCE_RULE = "instance must be a database's instance name: a lowercase letter, then 2 to 62 of a-z, 0-9 or _";

const notFound = (field: string, code: string, message: string) => ({
  status: 404,
  body: { error: "not_found", message: `No such ${field}: ${message}.`, errors: [{ field, code, message }] },
});

describe.each(ENGINES)("management path parameters (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  let stranger = "";
  const outcome = async (method: string, path: string, options: { body?: unknown; key?: string } = {}) => {
    const reply = await ctx.h.request(method, path, options);
    return { status: reply.status, body: reply.body };
  };

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "paths", [{ name: "books", columns: [{ name: "title", type: "varchar" }] }]);
    stranger = (await ctx.h.createAccount()).key;
  });

  it.each([
    ["an instance with a NUL byte", "GET", () => "/api/v1/databases/abc%00", "instance", "invalid_name", INSTANCE_RULE],
    ["an instance that is not valid percent-encoding", "GET", () => "/api/v1/databases/%E0%A4%A", "instance", "invalid_name", INSTANCE_RULE],
    ["an upper-case table name", "GET", () => `/api/v1/databases/${db}/tables/Books`, "table", "invalid_name", NAME_RULE("table")],
    ["a non-numeric key id", "DELETE", () => "/api/v1/keys/abc", "id", "invalid_id", ID_RULE("id")],
    ["a key id of zero", "POST", () => "/api/v1/keys/0/regenerate", "id", "invalid_id", ID_RULE("id")],
    ["an account id in exponent form", "POST", () => "/api/v1/accounts/1e3/disable", "account", "invalid_id", ID_RULE("account")],
    ["an account id past the safe integers", "POST", () => "/api/v1/accounts/9999999999999999/enable", "account", "invalid_id", ID_RULE("account")],
    ["a webhook id with a sign", "GET", () => `/api/v1/databases/${db}/webhooks/-1`, "webhook", "invalid_id", ID_RULE("webhook")],
    ["a view id with a leading zero", "DELETE", () => `/api/v1/databases/${db}/tables/books/views/07`, "view", "invalid_id", ID_RULE("view")],
    ["a member id that is a word", "DELETE", () => "/api/v1/team/members/me", "account", "invalid_id", ID_RULE("account")],
  ])("should block %s (404 naming the parameter)", async (_what, method, path, field, code, message) => {
    expect(await outcome(method, path())).toEqual(notFound(field, code, message));
  });

  it("should block a plan name it cannot create (422 naming plan), and allow a well-formed one", async () => {
    const limits = { max_databases: 3, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: null };
    const message = "plan must be 1 to 32 lowercase letters, digits, - or _, starting with a letter";
    expect(await outcome("PUT", "/api/v1/plans/Gold", { body: limits })).toEqual({
      status: 422,
      body: { error: "validation_failed", message, errors: [{ field: "plan", code: "invalid_name", message }] },
    });
    expect((await outcome("PUT", `/api/v1/plans/gold-${engine}`, { body: limits })).status).toBe(200);
  });

  it("should allow well-formed parameters through to the service (its own 404 for an unknown id)", async () => {
    expect((await outcome("GET", `/api/v1/databases/${db}/tables/books`)).status).toBe(200);
    expect(await outcome("DELETE", "/api/v1/keys/999999")).toEqual({ status: 404, body: { error: "not_found", message: "Key 999999 was not found." } });
    expect(await outcome("POST", "/api/v1/accounts/999999/disable")).toEqual({ status: 404, body: { error: "not_found", message: "Account 999999 was not found." } });
    const key = await ctx.h.request("POST", "/api/v1/keys", { body: { name: "path-param" } });
    expect((await outcome("DELETE", `/api/v1/keys/${key.body.id}`)).status).toBe(204);
  });

  it("parses before it authorizes: a stranger's malformed id is refused for its form, a well-formed one for access", async () => {
    expect(await outcome("GET", `/api/v1/databases/${db}/webhooks/abc`, { key: stranger })).toEqual(notFound("webhook", "invalid_id", ID_RULE("webhook")));
    expect(await outcome("GET", `/api/v1/databases/${db}/webhooks/1`, { key: stranger })).toEqual({
      status: 404,
      body: { error: "not_found", message: `Database "${db}" was not found.` },
    });
  });

  it("parses a workspace route's body before it authorizes: a stranger's bad invite is a 422, a good one the workspace's 404", async () => {
    const other = `?workspace=${ctx.h.accountId}`;
    const bad = await outcome("POST", `/api/v1/team/invites${other}`, { body: { role: "owner" }, key: stranger });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: "role", code: "invalid_value" })]);
    expect(await outcome("POST", `/api/v1/team/invites${other}`, { body: { role: "viewer" }, key: stranger })).toEqual({
      status: 404,
      body: { error: "not_found", message: `Workspace ${ctx.h.accountId} was not found (you are neither its owner nor a member).` },
    });
  });

  it("should block a malformed ?workspace= at the parse stage (422 naming workspace), and allow the caller's own", async () => {
    const message = "workspace must be the owner's account id";
    expect(await outcome("GET", "/api/v1/team/members?workspace=0")).toEqual({
      status: 422,
      body: { error: "validation_failed", message, errors: [{ field: "workspace", code: "invalid_value", message }] },
    });
    expect((await outcome("GET", `/api/v1/team/members?workspace=${ctx.h.accountId}`)).status).toBe(200);
  });
});

describe("path parameters in the management OpenAPI document", () => {
  const parameters = (buildManagementOpenApi("http://tabula.test/api/v1") as { components: { parameters: Record<string, { name: string; schema: Record<string, unknown> }> } }).components.parameters;

  it("publishes each parameter's schema from the one that parses it", () => {
    expect(parameters.Instance.schema).toEqual({ type: "string", pattern: INSTANCE_RE.source });
    expect(parameters.PlanName.schema).toEqual({ type: "string", pattern: PLAN_NAME_RE.source });
    for (const id of ["KeyId", "AccountId", "WebhookId", "WebhookDeliveryId", "ViewId", "InviteId", "AiBuildId"]) {
      expect(parameters[id].schema, id).toEqual({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    }
  });
});
