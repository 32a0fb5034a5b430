// Sign-in limits and sessions through the real dashboard (both engines): server.ts with Next (DASHBOARD on, the
// production build: run `next build` first) and next-auth's own sign-in. At most 10 failed sign-ins per
// account (the operator's included) and per client address in 15 minutes, then 429 with Retry-After, the
// right password included; the same answer for a known and an unknown email; X-Forwarded-For ignored without
// TRUST_PROXY. A sign-in is read once (form or JSON): a repeated field is a 400 and JSON counts against the
// account it names. A real session ends when the account signs out everywhere.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_ATTEMPTS } from "../../lib/auth/sign-in-limiter";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { rawRequest } from "../helpers/raw-request";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";

const PASSWORD = "correct horse battery";
const BUILD_ID = path.resolve(import.meta.dirname, "../../.next/BUILD_ID");

describe.each(ENGINES)("dashboard sign-in on %s", (engine) => {
  let h: Harness;
  let server: ServerProcess;
  let operatorEmail: string;

  beforeAll(async () => {
    if (!fs.existsSync(BUILD_ID)) throw new Error("These tests run the dashboard's production build: run `node scripts/copy-monaco.mjs && npx next build` first.");
    h = await startHarness(engine, "node");
    operatorEmail = (await h.request("GET", "/api/v1/account")).body.email;
    server = await startServerProcess(h, { DASHBOARD: "on" });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await h?.close();
  });

  /** A credentials sign-in after a CSRF token, its body made from the token (signIn() sends a form: `formBody`). */
  const postSignIn = async (from: string, body: (csrfToken: string) => { type: string; text: string }, options: { headers?: Record<string, string>; path?: string } = {}) => {
    const csrf = await rawRequest(server.base, { method: "GET", path: "/api/auth/csrf", from });
    const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    const { type, text } = body(csrf.body.csrfToken);
    const reply = await rawRequest(server.base, {
      path: options.path ?? "/api/auth/callback/credentials",
      body: text,
      headers: { "content-type": type, cookie, ...options.headers },
      from,
    });
    const session = (reply.headers["set-cookie"] ?? []).find((c) => c.startsWith("next-auth.session-token="));
    return { ...reply, session: session?.split(";")[0] };
  };
  const formBody = (fields: [string, string][]) => (csrfToken: string) => ({
    type: "application/x-www-form-urlencoded",
    text: new URLSearchParams([["csrfToken", csrfToken], ...fields, ["json", "true"], ["callbackUrl", server.base]]).toString(),
  });
  const signIn = (email: string, password: string, from: string, headers: Record<string, string> = {}) =>
    postSignIn(from, formBody([["email", email], ["password", password]]), { headers });
  const newAccount = async () => {
    const { accountId } = await h.createAccount();
    const email = (await h.request("GET", "/api/v1/accounts")).body.find((a: { id: number }) => a.id === accountId).email as string;
    return { accountId, email };
  };

  it("the right password signs in (a session cookie), a wrong one is refused without one", async () => {
    const account = await newAccount();
    const wrong = await signIn(account.email, "not the password", "127.0.1.1");
    expect({ status: wrong.status, session: wrong.session, url: wrong.body.url }).toEqual({ status: 401, session: undefined, url: expect.stringContaining("error=CredentialsSignin") });
    const right = await signIn(account.email, PASSWORD, "127.0.1.1");
    expect(right.status, right.text).toBe(200);
    expect(right.session).toMatch(/^next-auth\.session-token=/);
  });

  it("the operator's account: 10 failures from 10 addresses, then 429 with Retry-After, the right password included", async () => {
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect((await signIn(operatorEmail, `guess-${i}`, `127.0.2.${i + 1}`)).status).toBe(401);
    const limited = await signIn(operatorEmail, PASSWORD, "127.0.2.100");
    expect({ status: limited.status, error: limited.body.error, session: limited.session }).toEqual({ status: 429, error: "rate_limited", session: undefined });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(15 * 60);
    expect(limited.body.url).toContain("error=RateLimited");
  });

  it("one address: 10 failures on unknown emails, then 429 for a known account with its right password, the same answer as for an unknown one; another address signs in", async () => {
    const account = await newAccount();
    // A forged X-Forwarded-For changes nothing without TRUST_PROXY.
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect((await signIn(`nobody-${i}@example.com`, "guess", "127.0.3.1", { "x-forwarded-for": `203.0.113.${i}` })).status).toBe(401);
    const known = await signIn(account.email, PASSWORD, "127.0.3.1", { "x-forwarded-for": "203.0.113.200" });
    const unknown = await signIn("nobody-else@example.com", "guess", "127.0.3.1");
    expect([known.status, unknown.status], known.text).toEqual([429, 429]);
    expect(known.body.message.replace(/\d+/g, "N")).toBe(unknown.body.message.replace(/\d+/g, "N"));
    expect(known.session).toBeUndefined();
    const elsewhere = await signIn(account.email, PASSWORD, "127.0.3.2");
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.session).toMatch(/^next-auth\.session-token=/);
  });

  const jsonBody = (text: (csrfToken: string) => string) => (csrfToken: string) => ({ type: "application/json", text: text(csrfToken) });
  const repeatedBody = (field: string) => ({
    error: "bad_request",
    message: `The sign-in field "${field}" is given more than once; send each field once.`,
    errors: [{ field, code: "repeated", message: `"${field}" is given more than once.` }],
  });

  it.each([
    ["a form's email", "email", formBody([["email", "decoy@example.com"], ["email", "VICTIM"], ["password", "guess"]])],
    ["a form's password", "password", formBody([["email", "VICTIM"], ["password", "guess"], ["password", "guess-2"]])],
    ["a JSON body's email", "email", jsonBody((t) => `{"csrfToken":"${t}","email":"decoy@example.com","email":"VICTIM","password":"guess","json":"true"}`)],
    ["a JSON body's escaped email", "email", jsonBody((t) => `{"csrfToken":"${t}","email":"VICTIM","em\\u0061il":"decoy@example.com","password":"guess","json":"true"}`)],
  ])("%s given twice is a 400 naming the field, with no password checked; the account still signs in", async (_name, field, body) => {
    const account = await newAccount();
    const withVictim = (csrfToken: string) => {
      const made = body(csrfToken);
      return { ...made, text: made.text.replaceAll("VICTIM", made.type === "application/json" ? account.email : encodeURIComponent(account.email)) };
    };
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      const reply = await postSignIn(`127.0.5.${i + 1}`, withVictim);
      expect({ status: reply.status, body: reply.body, session: reply.session }).toEqual({ status: 400, body: repeatedBody(field), session: undefined });
    }
    const right = await signIn(account.email, PASSWORD, "127.0.5.100");
    expect(right.status, right.text).toBe(200);
  });

  it("JSON sign-ins count against the account they name (its email however spelled): 10 failures, then 429; a JSON sign-in with the right password works", async () => {
    const account = await newAccount();
    const json = (email: string, password: string) => jsonBody((csrfToken) => JSON.stringify({ csrfToken, email, password, json: "true", callbackUrl: server.base }));
    const right = await postSignIn("127.0.6.1", json(account.email, PASSWORD));
    expect({ status: right.status, session: right.session?.startsWith("next-auth.session-token=") }, right.text).toEqual({ status: 200, session: true });
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      const spelled = i % 2 ? ` ${account.email.toUpperCase()} ` : account.email;
      expect((await postSignIn(`127.0.6.${i + 2}`, json(spelled, `guess-${i}`))).status).toBe(401);
    }
    const limited = await signIn(account.email, PASSWORD, "127.0.6.100");
    expect({ status: limited.status, error: limited.body.error, session: limited.session }).toEqual({ status: 429, error: "rate_limited", session: undefined });
  });

  it("a credentials callback with more path after it counts like the plain one", async () => {
    const account = await newAccount();
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      const reply = await postSignIn(`127.0.7.${i + 1}`, formBody([["email", account.email], ["password", `guess-${i}`]]), { path: "/api/auth/callback/credentials/again" });
      expect(reply.status, reply.text).toBe(401);
    }
    const limited = await signIn(account.email, PASSWORD, "127.0.7.100");
    expect({ status: limited.status, error: limited.body.error }).toEqual({ status: 429, error: "rate_limited" });
  });

  it("a real session works until the account signs out everywhere; then the management API and next-auth both end it", async () => {
    const account = await newAccount();
    const { session } = await signIn(account.email, PASSWORD, "127.0.4.1");
    const me = () => rawRequest(server.base, { method: "GET", path: "/api/v1/account", headers: { cookie: session! }, from: "127.0.4.1" });
    const nextAuthSession = () => rawRequest(server.base, { method: "GET", path: "/api/auth/session", headers: { cookie: session! }, from: "127.0.4.1" });
    expect((await me()).status).toBe(200);
    expect((await nextAuthSession()).body).toMatchObject({ user: { email: account.email } });

    const ended = await rawRequest(server.base, { method: "DELETE", path: "/api/v1/account/sessions", headers: { cookie: session! }, from: "127.0.4.1" });
    expect(ended.status, ended.text).toBe(204);
    expect((await me()).status).toBe(401);
    const after = await nextAuthSession();
    expect(after.body).toEqual({});
    expect((after.headers["set-cookie"] ?? []).some((c) => c.startsWith("next-auth.session-token=;"))).toBe(true);
  });
});
