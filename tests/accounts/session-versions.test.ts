// Session versions (both engines): dashboard sessions carry the account's session version. A password
// change ends the account's other sessions (the one that made it stays, with a renewed cookie); an operator
// reset, a disable and "Sign out everywhere" end all of them. Keys are not sessions. Each case is a pair: the
// ended session refused, a live one (or another account's) allowed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authOptions } from "../../lib/auth/auth-options";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { keyHeaders, type Send, sessionHeaders, startServer } from "../permissions/matrix-fixture";

const PASSWORD = "correct horse battery";
const SIGNED_OUT = { status: 401, body: { error: "unauthorized", message: "Sign in, or send an account secret key as Authorization: Bearer <key>." } };

describe.each(ENGINES)("session versions on %s", (engine) => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let send: Send;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    server = await startServer(h);
    send = server.send;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  const reach = async (headers: Record<string, string>) => {
    const r = await send("GET", "/api/v1/databases", { headers });
    return r.status === 200 ? { status: 200 } : { status: r.status, body: r.body };
  };
  /** The cookie a Set-Cookie header sets, as the browser sends it back. */
  const cookieFrom = (setCookie: string | null) => ({ cookie: (setCookie ?? "").split(";")[0] });

  it("a password change ends the other sessions; the session that made it stays signed in with its renewed cookie", async () => {
    const account = await h.createAccount();
    const laptop = await sessionHeaders(h, account.accountId);
    const phone = await sessionHeaders(h, account.accountId);
    expect([await reach(laptop), await reach(phone)]).toEqual([{ status: 200 }, { status: 200 }]);

    const changed = await send("PUT", "/api/v1/account/password", { headers: laptop, body: { current_password: PASSWORD, new_password: "a brand new password" } });
    expect(changed.status, changed.text).toBe(204);
    const setCookie = changed.headers.get("set-cookie");
    expect(setCookie).toMatch(/^next-auth\.session-token=[\w.-]+; Path=\/; Max-Age=604800; HttpOnly; SameSite=Lax$/);

    expect(await reach(phone)).toEqual(SIGNED_OUT);
    expect(await reach(cookieFrom(setCookie))).toEqual({ status: 200 });
    // Keys are not sessions: the account's key still works.
    expect(await reach(keyHeaders(account.key))).toEqual({ status: 200 });
  });

  it("a password change made with a key ends every session (there is no session to keep)", async () => {
    const account = await h.createAccount();
    const session = await sessionHeaders(h, account.accountId);
    const changed = await send("PUT", "/api/v1/account/password", { headers: keyHeaders(account.key), body: { current_password: PASSWORD, new_password: "another new password" } });
    expect(changed.status, changed.text).toBe(204);
    expect(changed.headers.get("set-cookie")).toBeNull();
    expect(await reach(session)).toEqual(SIGNED_OUT);
  });

  it("an operator reset ends every session of the account, and no other account's", async () => {
    const account = await h.createAccount();
    const bystander = await h.createAccount();
    const sessions = [await sessionHeaders(h, account.accountId), await sessionHeaders(h, account.accountId)];
    const other = await sessionHeaders(h, bystander.accountId);
    const reset = await send("POST", `/api/v1/accounts/${account.accountId}/password`, { headers: keyHeaders(h.accountKey), body: {} });
    expect(reset.status, reset.text).toBe(200);
    expect([await reach(sessions[0]), await reach(sessions[1])]).toEqual([SIGNED_OUT, SIGNED_OUT]);
    expect(await reach(other)).toEqual({ status: 200 });
    // Signing in again (a session signed with the new version) works.
    expect(await reach(await sessionHeaders(h, account.accountId))).toEqual({ status: 200 });
  });

  it("a disable ends every session; enabling again does not bring them back, a new sign-in works", async () => {
    const account = await h.createAccount();
    const session = await sessionHeaders(h, account.accountId);
    expect((await send("POST", `/api/v1/accounts/${account.accountId}/disable`, { headers: keyHeaders(h.accountKey) })).status).toBe(200);
    expect((await send("POST", `/api/v1/accounts/${account.accountId}/enable`, { headers: keyHeaders(h.accountKey) })).status).toBe(200);
    expect(await reach(session)).toEqual(SIGNED_OUT);
    expect(await reach(await sessionHeaders(h, account.accountId))).toEqual({ status: 200 });
  });

  it("Sign out everywhere ends every session, the caller's included (its cookie cleared), and no other account's", async () => {
    const account = await h.createAccount();
    const bystander = await h.createAccount();
    const here = await sessionHeaders(h, account.accountId);
    const there = await sessionHeaders(h, account.accountId);
    const other = await sessionHeaders(h, bystander.accountId);
    const ended = await send("DELETE", "/api/v1/account/sessions", { headers: here });
    expect(ended.status, ended.text).toBe(204);
    expect(ended.headers.get("set-cookie")).toBe("next-auth.session-token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    expect([await reach(here), await reach(there)]).toEqual([SIGNED_OUT, SIGNED_OUT]);
    expect(await reach(other)).toEqual({ status: 200 });
    expect(await reach(keyHeaders(account.key))).toEqual({ status: 200 });
  });

  it("Sign out everywhere: should allow an account-wide key, block a database key (403) and no credentials (401)", async () => {
    const account = await h.createAccount();
    const db = await send("POST", "/api/v1/databases", { headers: keyHeaders(account.key), body: { name: "Mine" } });
    const scoped = await send("POST", "/api/v1/keys", { headers: keyHeaders(account.key), body: { name: "db only", database: db.body.instance } });
    const session = await sessionHeaders(h, account.accountId);
    expect((await send("DELETE", "/api/v1/account/sessions", { headers: keyHeaders(scoped.body.key) })).status).toBe(403);
    expect((await send("DELETE", "/api/v1/account/sessions", {})).status).toBe(401);
    expect(await reach(session)).toEqual({ status: 200 });
    expect((await send("DELETE", "/api/v1/account/sessions", { headers: keyHeaders(account.key) })).status).toBe(204);
    expect(await reach(session)).toEqual(SIGNED_OUT);
  });

  it("next-auth's own session check ends a session of a past version (its cookie is then cleared) and keeps a current one", async () => {
    const account = await h.createAccount();
    const jwt = authOptions(h.app).callbacks!.jwt! as (args: { token: Record<string, unknown> }) => Promise<unknown>;
    const current = { sub: String(account.accountId), sv: 0 };
    await expect(jwt({ token: current })).resolves.toEqual(current);
    expect((await send("DELETE", "/api/v1/account/sessions", { headers: keyHeaders(account.key) })).status).toBe(204);
    await expect(jwt({ token: current })).rejects.toThrow("SessionEnded");
    await expect(jwt({ token: { ...current, sv: 1 } })).resolves.toMatchObject({ sv: 1 });
  });
});
