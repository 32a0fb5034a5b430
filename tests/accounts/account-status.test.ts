// The operator disables and enables accounts, and resets their passwords; a disabled account can neither
// sign in nor use its keys (management API, its databases' data API), and everything works again once it is
// enabled. Each case is a pair: the operator is allowed, anyone else refused. Sessions go through the real
// session resolver (the dashboard's cookie), sign-in through next-auth's authorize.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authOptions } from "../../lib/auth/auth-options";
import { ACCOUNT_DISABLED_ERROR } from "../../lib/auth/sign-in-errors";
import { ACCOUNT_DISABLED_SESSION } from "../../lib/auth/resolve-session";
import { ACCOUNT_DISABLED } from "../../lib/keys/resolve-key";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { keyHeaders, type Send, sessionHeaders, startServer } from "../permissions/matrix-fixture";

const PASSWORD = "correct horse battery";

describe.each(ENGINES)("account status and password reset on %s", (engine) => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let send: Send;
  let operator: Record<string, string>;
  let member: { accountId: number; key: string; email: string; instance: string };

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    server = await startServer(h);
    send = server.send;
    operator = keyHeaders(h.accountKey);
    const account = await h.createAccount();
    const me = await send("GET", "/api/v1/account", { headers: keyHeaders(account.key) });
    const db = await send("POST", "/api/v1/databases", {
      headers: keyHeaders(account.key),
      body: { name: "Member data", tables: [{ name: "notes", columns: [{ name: "text", type: "varchar" }] }] },
    });
    expect(db.status, db.text).toBe(201);
    member = { ...account, email: me.body.email, instance: db.body.instance };
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  const signIn = (email: string, password: string) => {
    const attempt = { realm: "dashboard", login: email, address: "127.0.0.1" };
    const provider = authOptions(h.app, { email, password, attempt }).providers[0] as unknown as { options: { authorize: (c: Record<string, string>) => Promise<unknown> } };
    return provider.options.authorize({ email, password });
  };
  const memberCalls = async () => ({
    management: await send("GET", "/api/v1/account", { headers: keyHeaders(member.key) }),
    data: await send("GET", `/v1/${member.instance}/notes`, { headers: keyHeaders(member.key) }),
    session: await send("GET", "/api/v1/databases", { headers: await sessionHeaders(h, member.accountId) }),
  });

  it("refuses disable, enable and reset to anyone but the operator, and leaves the account as it was", async () => {
    const other = await h.createAccount();
    for (const path of ["disable", "enable", "password"]) {
      const reply = await send("POST", `/api/v1/accounts/${member.accountId}/${path}`, { headers: keyHeaders(other.key), body: path === "password" ? { password: "taken over!" } : undefined });
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 403, body: { error: "forbidden", message: REFUSALS.operatorOnly } });
    }
    expect((await memberCalls()).management.status).toBe(200);
    expect(await signIn(member.email, PASSWORD)).toMatchObject({ email: member.email });
  });

  it("a disabled account's keys, session and sign-in are refused with a clear message; enabled again, all work", async () => {
    const disabled = await send("POST", `/api/v1/accounts/${member.accountId}/disable`, { headers: operator });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ id: member.accountId, disabled_at: expect.any(String) });

    const refused = await memberCalls();
    expect({ status: refused.management.status, body: refused.management.body }).toEqual({ status: 403, body: { error: "forbidden", message: ACCOUNT_DISABLED } });
    expect({ status: refused.data.status, body: refused.data.body }).toEqual({ status: 403, body: { error: "forbidden", message: ACCOUNT_DISABLED } });
    expect({ status: refused.session.status, body: refused.session.body }).toEqual({ status: 401, body: { error: "unauthorized", message: ACCOUNT_DISABLED_SESSION } });
    await expect(signIn(member.email, PASSWORD)).rejects.toThrow(ACCOUNT_DISABLED_ERROR);
    // Only someone who knows the password learns that the account is disabled.
    expect(await signIn(member.email, "not the password")).toBeNull();
    const listed = await send("GET", "/api/v1/accounts", { headers: operator });
    expect(listed.body.find((a: { id: number }) => a.id === member.accountId).disabled_at).toEqual(disabled.body.disabled_at);

    const enabled = await send("POST", `/api/v1/accounts/${member.accountId}/enable`, { headers: operator });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.disabled_at).toBeNull();
    const allowed = await memberCalls();
    expect([allowed.management.status, allowed.data.status, allowed.session.status]).toEqual([200, 200, 200]);
    expect(await signIn(member.email, PASSWORD)).toMatchObject({ email: member.email });
  });

  it("the operator's own account cannot be disabled (409), and an unknown account is 404", async () => {
    const self = await send("POST", `/api/v1/accounts/${h.accountId}/disable`, { headers: operator });
    expect({ status: self.status, body: self.body }).toEqual({ status: 409, body: { error: "conflict", message: "The operator's account cannot be disabled." } });
    expect((await send("GET", "/api/v1/account", { headers: operator })).status).toBe(200);
    const missing = await send("POST", "/api/v1/accounts/999999/disable", { headers: operator });
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: { error: "not_found", message: "Account 999999 was not found." } });
  });

  it("the operator resets a password to one typed, or to a generated one returned once", async () => {
    const typed = await send("POST", `/api/v1/accounts/${member.accountId}/password`, { headers: operator, body: { password: "typed by the operator" } });
    expect(typed.status, typed.text).toBe(200);
    expect(typed.body).toMatchObject({ account: { id: member.accountId }, generated_password: null });
    expect(await signIn(member.email, PASSWORD)).toBeNull();
    expect(await signIn(member.email, "typed by the operator")).toMatchObject({ email: member.email });

    const generated = await send("POST", `/api/v1/accounts/${member.accountId}/password`, { headers: operator, body: {} });
    expect(generated.status, generated.text).toBe(200);
    expect(generated.body.generated_password).toMatch(/^[a-zA-Z2-9]{4}(-[a-zA-Z2-9]{4}){3}$/);
    expect(await signIn(member.email, "typed by the operator")).toBeNull();
    expect(await signIn(member.email, generated.body.generated_password)).toMatchObject({ email: member.email });

    const short = await send("POST", `/api/v1/accounts/${member.accountId}/password`, { headers: operator, body: { password: "short" } });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([expect.objectContaining({ field: "password" })]);
    expect(await signIn(member.email, generated.body.generated_password)).toMatchObject({ email: member.email });
    await send("POST", `/api/v1/accounts/${member.accountId}/password`, { headers: operator, body: { password: PASSWORD } });
  });
});
