// A signed-in account changes its own password: the current one is required (a wrong one is 422 naming
// `current_password` and changes nothing); a database key or no credentials are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyCredentials } from "../../lib/auth/verify-credentials";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { keyHeaders, type Send, sessionHeaders, startServer } from "../permissions/matrix-fixture";

const PASSWORD = "correct horse battery";

describe.each(ENGINES)("changing your own password on %s", (engine) => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let send: Send;
  let account: { accountId: number; key: string; email: string };

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    server = await startServer(h);
    send = server.send;
    const made = await h.createAccount();
    const me = await send("GET", "/api/v1/account", { headers: keyHeaders(made.key) });
    account = { ...made, email: me.body.email };
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  const change = async (headers: Record<string, string>, body: unknown) => send("PUT", "/api/v1/account/password", { headers, body });
  const signsInWith = async (password: string) => (await verifyCredentials(h.app, { email: account.email, password })) !== null;

  it("a wrong current password is 422 naming current_password, and the password stays", async () => {
    const reply = await change(await sessionHeaders(h, account.accountId), { current_password: "not it at all", new_password: "a brand new password" });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 422,
      body: {
        error: "validation_failed",
        message: "current_password is not this account's password",
        errors: [{ field: "current_password", code: "wrong_password", message: "current_password is not this account's password" }],
      },
    });
    expect(await signsInWith(PASSWORD)).toBe(true);
    expect(await signsInWith("a brand new password")).toBe(false);
  });

  it("a too short new password is 422 naming new_password, and the password stays", async () => {
    const reply = await change(await sessionHeaders(h, account.accountId), { current_password: PASSWORD, new_password: "short" });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(["new_password"]);
    expect(await signsInWith(PASSWORD)).toBe(true);
  });

  it("a database key and no credentials are refused; the session with the right current password changes it", async () => {
    const db = await send("POST", "/api/v1/databases", { headers: keyHeaders(account.key), body: { name: "Pw" } });
    const scoped = await send("POST", "/api/v1/keys", { headers: keyHeaders(account.key), body: { name: "scoped", database: db.body.instance } });
    expect(scoped.status, scoped.text).toBe(201);
    const body = { current_password: PASSWORD, new_password: "a brand new password" };
    const byDbKey = await change(keyHeaders(scoped.body.key), body);
    expect({ status: byDbKey.status, body: byDbKey.body }).toEqual({ status: 403, body: { error: "forbidden", message: REFUSALS.databaseKeyOutside } });
    expect((await change({}, body)).status).toBe(401);
    expect(await signsInWith(PASSWORD)).toBe(true);

    const done = await change(await sessionHeaders(h, account.accountId), body);
    expect(done.status, done.text).toBe(204);
    expect(await signsInWith("a brand new password")).toBe(true);
    expect(await signsInWith(PASSWORD)).toBe(false);
  });
});
