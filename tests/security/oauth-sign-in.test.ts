// Sign-in with OAuth 2.0 / OpenID Connect, driven over real HTTP as a browser would: a real OpenID provider
// (oidc-provider) on loopback for the `oidc` preset, and for the `github` preset a small fake of GitHub written
// here (authorize, token endpoint, /user, /user/emails) that checks PKCE and the client secret as GitHub does.
// Covers new users, the same user on a second sign-in, linking by verified email only, tampered state, a
// foreign nonce, redirects outside the list, a provider that is down or answers garbage, and MFA after OAuth.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SIGN_IN_ATTEMPTS } from "../../lib/auth/sign-in-limiter";
import { setUserDisabled } from "../../lib/db-auth/disable-user";
import { createDatabase, expect422, expectError } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { followRedirects, type OidcTestProvider, startOidcProvider } from "../helpers/oidc-test-provider";
import { bearer, enableAuth } from "./security-fixture";

const APP = "https://app.example.test/auth/done";

/** A fake of GitHub's OAuth and REST API: what the `github` preset calls, nothing more. */
const startFakeGitHub = async (clientId: string, clientSecret: string) => {
  const codes = new Map<string, { challenge: string; redirect: string }>();
  const tokens = new Set<string>();
  const state = { user: { id: 4242, login: "octo", email: null as string | null }, emails: [] as unknown[], garbage: false };
  let n = 0;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, "http://x");
    let body = "";
    for await (const chunk of req) body += chunk;
    const send = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (url.pathname === "/login/oauth/authorize") {
      if (url.searchParams.get("client_id") !== clientId || url.searchParams.get("code_challenge_method") !== "S256") return send(400, { error: "bad authorize" });
      const code = `ghcode${++n}`;
      codes.set(code, { challenge: url.searchParams.get("code_challenge")!, redirect: url.searchParams.get("redirect_uri")! });
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state")!);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      if (state.garbage) return res.writeHead(200, { "content-type": "text/html" }).end("<html>oops</html>");
      const form = new URLSearchParams(body);
      const grant = codes.get(form.get("code") ?? "");
      const verifier = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url");
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret || !grant || grant.challenge !== verifier || grant.redirect !== form.get("redirect_uri")) {
        return send(400, { error: "bad_verification_code" });
      }
      codes.delete(form.get("code")!);
      const token = `gho_${++n}`;
      tokens.add(token);
      return send(200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
    }
    if (!tokens.has((req.headers.authorization ?? "").replace(/^Bearer /, ""))) return send(401, { message: "Bad credentials" });
    if (url.pathname === "/api/user") return send(200, state.user);
    if (url.pathname === "/api/user/emails") return send(200, state.emails);
    return send(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe.each(ENGINES)("OAuth / OpenID Connect sign-in on %s (node adapter: the provider calls back over HTTP)", (engine) => {
  let h: Harness;
  let provider: OidcTestProvider;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;
  let db: string;
  let seq = 0;

  // Each test signs in from its own address (one trusted proxy), so the sign-in limits of one do not reach another.
  let address = 0;
  beforeEach(() => {
    address++;
  });
  const fromClient = () => ({ "x-forwarded-for": `10.7.${engine === "sqlite" ? 1 : 2}.${address}` });

  const users = async (database = db) => (await h.request("GET", `/v1/${database}/users?_limit=100`)).body as { id: number; email: string }[];

  /** GET /auth/oauth/{provider}: the 302, with its cookie jar. */
  const start = async (name: string, redirectTo = APP, database = db) => {
    const response = await fetch(`${h.baseUrl}/v1/${database}/auth/oauth/${name}?redirect_to=${encodeURIComponent(redirectTo)}`, { redirect: "manual", headers: fromClient() });
    const jar = new Map<string, string>();
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    return { response, location: response.headers.get("location") ?? "", jar };
  };
  const cookieOf = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

  /** Through the provider back to the callback: the callback URL the provider redirected to, and the cookies. */
  const toCallback = async (name: string, database = db, tamper?: (authorize: URL) => void) => {
    const started = await start(name, APP, database);
    expect(started.response.status, await started.response.clone().text()).toBe(302);
    const authorize = new URL(started.location);
    tamper?.(authorize);
    const callback = await followRedirects(authorize.href, `${h.baseUrl}/v1/${database}/auth/oauth/${name}/callback`);
    return { callback, jar: started.jar };
  };

  const callBack = (url: string, jar: Map<string, string>) => fetch(url, { redirect: "manual", headers: { cookie: cookieOf(jar), ...fromClient() } });

  /** The whole flow: the one-time code exchanged for what the exchange answers. */
  const signIn = async (name: string, database = db) => {
    const { callback, jar } = await toCallback(name, database);
    const back = await callBack(callback, jar);
    expect(back.status, await back.clone().text()).toBe(302);
    const location = new URL(back.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(APP);
    const exchanged = await h.request("POST", `/v1/${database}/auth/oauth/exchange`, { key: null, body: { code: location.searchParams.get("code") } });
    return { exchanged, code: location.searchParams.get("code")! };
  };

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { trustProxy: { hops: 1 } } });
    github = await startFakeGitHub("gh-client", "gh-secret");
    h.app.config.oauth = { googleIssuer: "http://127.0.0.1:9", githubUrl: github.base, githubApiUrl: `${github.base}/api` };
    db = await createDatabase(h, `oauth ${engine}`, [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
    ]);
    provider = await startOidcProvider([`${h.baseUrl}/v1/${db}/auth/oauth/oidc/callback`, `${h.baseUrl}/v1/${db}/auth/oauth/google/callback`]);
    // The google preset is discovered at OAUTH_GOOGLE_ISSUER: here the same loopback provider.
    h.app.config.oauth = { ...h.app.config.oauth!, googleIssuer: provider.issuer };
    await enableAuth(h, db, {
      redirect_urls: [APP],
      providers: [
        { id: "oidc", client_id: provider.clientId, client_secret: provider.clientSecret, issuer: provider.issuer },
        { id: "github", client_id: "gh-client", client_secret: "gh-secret" },
        { id: "google", client_id: provider.clientId, client_secret: provider.clientSecret },
      ],
    });
  });
  afterAll(async () => {
    await provider?.close();
    await github?.close();
    await h?.close();
  });

  it("start: 302 to the provider with PKCE (S256), state, nonce and the callback; a cookie ties the flow to the browser", async () => {
    const { response, location, jar } = await start("oidc");
    expect(response.status).toBe(302);
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual(
      expect.objectContaining({
        client_id: provider.clientId,
        response_type: "code",
        redirect_uri: `${h.baseUrl}/v1/${db}/auth/oauth/oidc/callback`,
        code_challenge_method: "S256",
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        state: expect.stringMatching(/^[\w-]{43}$/),
        nonce: expect.any(String),
        scope: "openid email profile",
      }),
    );
    expect(response.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);
    expect(jar.size).toBe(1);
  });

  it("a new user is created from the verified email; a second sign-in finds the same user; the code is single use", async () => {
    const email = `new${++seq}@example.com`;
    provider.signInAs({ sub: `sub-new-${seq}`, email, email_verified: true });
    const first = await signIn("oidc");
    expect(first.exchanged.status, first.exchanged.text).toBe(200);
    expect(first.exchanged.body).toEqual(expect.objectContaining({ token: expect.any(String), token_type: "Bearer", user: expect.objectContaining({ email }) }));
    expect(first.exchanged.body.user).not.toHaveProperty("password");
    const me = await h.request("GET", `/v1/${db}/auth/me`, bearer(first.exchanged.body.token));
    expect(me.body.email).toBe(email);
    expectError(await h.request("POST", `/v1/${db}/auth/oauth/exchange`, { key: null, body: { code: first.code } }), 400, "bad_request");

    const before = (await users()).length;
    const second = await signIn("oidc");
    expect(second.exchanged.status, second.exchanged.text).toBe(200);
    expect(second.exchanged.body.user.id).toBe(first.exchanged.body.user.id);
    expect((await users()).length).toBe(before);
  });

  it("links to an existing user by a verified email (no new user)", async () => {
    const created = await h.request("POST", `/v1/${db}/users`, { body: { email: "linked@example.com", password: "existing-pass-1" } });
    expect(created.status, created.text).toBe(201);
    const before = (await users()).length;
    provider.signInAs({ sub: "sub-linked", email: "linked@example.com", email_verified: true });
    const { exchanged } = await signIn("oidc");
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.user.id).toBe(created.body.id);
    expect((await users()).length).toBe(before);
    // The password still works beside the provider.
    expect((await h.request("POST", `/v1/${db}/auth/login`, { key: null, body: { email: "linked@example.com", password: "existing-pass-1" } })).status).toBe(200);
  });

  it("refuses an email the provider has not verified: no link to the existing user, no new user", async () => {
    const created = await h.request("POST", `/v1/${db}/users`, { body: { email: "victim@example.com", password: "victim-pass-1" } });
    expect(created.status).toBe(201);
    const before = await users();
    for (const email of ["victim@example.com", "unverified-new@example.com"]) {
      provider.signInAs({ sub: `sub-unverified-${email}`, email, email_verified: false });
      const { callback, jar } = await toCallback("oidc");
      const back = await callBack(callback, jar);
      expect(back.status).toBe(403);
      expect((await back.json()).error).toBe("forbidden");
    }
    expect(await users()).toEqual(before);
  });

  it("a tampered state is 400 and signs nobody in; so is a callback from another browser (no cookie) or a replayed one", async () => {
    provider.signInAs({ sub: "sub-tamper", email: "tamper@example.com", email_verified: true });
    const before = (await users()).length;
    const { callback, jar } = await toCallback("oidc");
    const tampered = new URL(callback);
    tampered.searchParams.set("state", `${tampered.searchParams.get("state")!.slice(0, -2)}xx`);
    const refused = await callBack(tampered.href, jar);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe("bad_request");

    const other = await toCallback("oidc");
    const noCookie = await callBack(other.callback, new Map());
    expect(noCookie.status).toBe(400);
    // The flow is spent once tried: the right browser cannot finish it afterwards either.
    expect((await callBack(other.callback, other.jar)).status).toBe(400);
    expect((await users()).length).toBe(before);
  });

  it("an ID token carrying another nonce is refused (400), nobody signed in", async () => {
    provider.signInAs({ sub: "sub-nonce", email: "nonce@example.com", email_verified: true });
    const before = (await users()).length;
    const { callback, jar } = await toCallback("oidc", db, (authorize) => authorize.searchParams.set("nonce", "a-nonce-of-another-sign-in"));
    const back = await callBack(callback, jar);
    expect(back.status).toBe(400);
    expect((await back.json()).message).toContain("nonce");
    expect((await users()).length).toBe(before);
  });

  it("redirect_to outside the configured list (or missing) is 422 on redirect_to, before any redirect", async () => {
    for (const target of ["https://evil.example/auth/done", "https://app.example.test/other", "https://app.example.test.evil.example/auth/done"]) {
      const { response } = await start("oidc", target);
      expect(response.status).toBe(422);
      expect(response.headers.get("location")).toBeNull();
      expect((await response.json()).errors[0].field).toBe("redirect_to");
    }
    expect422(await h.request("GET", `/v1/${db}/auth/oauth/oidc`, { key: null }), "redirect_to");
    // Its own query string is kept and allowed.
    expect((await start("oidc", `${APP}?next=%2Fhome`)).response.status).toBe(302);
  });

  it("an unknown provider is 404; the wrong verbs are 405", async () => {
    expectError(await h.request("GET", `/v1/${db}/auth/oauth/facebook?redirect_to=${encodeURIComponent(APP)}`, { key: null }), 404, "not_found");
    expectError(await h.request("POST", `/v1/${db}/auth/oauth/oidc`, { key: null }), 405, "method_not_allowed");
    expectError(await h.request("GET", `/v1/${db}/auth/oauth/exchange`, { key: null }), 405, "method_not_allowed");
    expect422(await h.request("POST", `/v1/${db}/auth/oauth/exchange`, { key: null, body: {} }), "code");
  });

  it("google preset: discovered at its issuer; the same verified email through google and oidc is one user", async () => {
    provider.signInAs({ sub: "sub-both", email: "both@example.com", email_verified: true });
    const viaOidc = await signIn("oidc");
    const viaGoogle = await signIn("google");
    expect(viaGoogle.exchanged.status, viaGoogle.exchanged.text).toBe(200);
    expect(viaGoogle.exchanged.body.user.id).toBe(viaOidc.exchanged.body.user.id);
  });

  it("with sign-up closed, a verified email links to an existing user but makes no new one (403)", async () => {
    const closed = await createDatabase(h, `oauth closed ${engine}`, [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
    ]);
    const closedProvider = await startOidcProvider([`${h.baseUrl}/v1/${closed}/auth/oauth/google/callback`]);
    h.app.config.oauth = { ...h.app.config.oauth!, googleIssuer: closedProvider.issuer };
    try {
      await enableAuth(h, closed, { signup: false, redirect_urls: [APP], providers: [{ id: "google", client_id: closedProvider.clientId, client_secret: closedProvider.clientSecret }] });
      expect((await h.request("POST", `/v1/${closed}/users`, { body: { email: "member@example.com", password: "member-pass-1" } })).status).toBe(201);
      closedProvider.signInAs({ sub: "sub-stranger", email: "stranger@example.com", email_verified: true });
      let flow = await start("google", APP, closed);
      let back = await callBack(await followRedirects(flow.location, `${h.baseUrl}/v1/${closed}/auth/oauth/google/callback`), flow.jar);
      expect(back.status).toBe(403);
      closedProvider.signInAs({ sub: "sub-member", email: "member@example.com", email_verified: true });
      flow = await start("google", APP, closed);
      back = await callBack(await followRedirects(flow.location, `${h.baseUrl}/v1/${closed}/auth/oauth/google/callback`), flow.jar);
      expect(back.status).toBe(302);
      expect((await users(closed)).map((u) => u.email)).toEqual(["member@example.com"]);
    } finally {
      h.app.config.oauth = { ...h.app.config.oauth!, googleIssuer: provider.issuer };
      await closedProvider.close();
    }
  });

  it("a disabled user is refused at the exchange (403); enabled again, the same sign-in works", async () => {
    provider.signInAs({ sub: "sub-disabled", email: "disabled@example.com", email_verified: true });
    const first = await signIn("oidc");
    const userId = first.exchanged.body.user.id as number;
    const databaseId = (await h.app.engine.meta.selectFrom("databases").select("id").where("instance", "=", db).executeTakeFirstOrThrow()).id;
    await setUserDisabled(h.app, databaseId, userId, true);
    expectError((await signIn("oidc")).exchanged, 403, "forbidden");
    await setUserDisabled(h.app, databaseId, userId, false);
    const again = await signIn("oidc");
    expect(again.exchanged.status, again.exchanged.text).toBe(200);
    expect(again.exchanged.body.user.id).toBe(userId);
  });

  it("github: the fake GitHub's verified primary email signs in (a user created), then the same user again", async () => {
    github.state.user = { id: 777, login: "octo", email: null };
    github.state.emails = [
      { email: "octo-old@example.com", primary: false, verified: true },
      { email: "octo@example.com", primary: true, verified: true },
    ];
    const first = await signIn("github");
    expect(first.exchanged.status, first.exchanged.text).toBe(200);
    expect(first.exchanged.body.user.email).toBe("octo@example.com");
    const second = await signIn("github");
    expect(second.exchanged.body.user.id).toBe(first.exchanged.body.user.id);
  });

  it("github: an unverified primary email is refused", async () => {
    github.state.user = { id: 778, login: "unverified", email: "public@example.com" };
    github.state.emails = [{ email: "ghost@example.com", primary: true, verified: false }];
    const before = (await users()).length;
    const { callback, jar } = await toCallback("github");
    expect((await callBack(callback, jar)).status).toBe(403);
    expect((await users()).length).toBe(before);
  });

  it("github: a token endpoint answering garbage is 502 provider_unavailable, no user created", async () => {
    github.state.user = { id: 779, login: "garbage", email: null };
    github.state.emails = [{ email: "garbage@example.com", primary: true, verified: true }];
    const before = (await users()).length;
    const { callback, jar } = await toCallback("github");
    github.state.garbage = true;
    try {
      const back = await callBack(callback, jar);
      expect(back.status).toBe(502);
      expect((await back.json()).error).toBe("provider_unavailable");
    } finally {
      github.state.garbage = false;
    }
    expect((await users()).length).toBe(before);
  });

  it("MFA applies after OAuth: an enrolled user's exchange answers an MFA token, and the challenge gives the session", async () => {
    await enableAuth(h, db, {
      redirect_urls: [APP],
      mfa: "optional",
      providers: [{ id: "oidc", client_id: provider.clientId, client_secret: provider.clientSecret, issuer: provider.issuer }],
    });
    provider.signInAs({ sub: "sub-mfa", email: "mfa@example.com", email_verified: true });
    const plain = await signIn("oidc");
    const token = plain.exchanged.body.token;
    const enrolled = await h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer(token));
    const secret = enrolled.body.secret;
    const code = (step: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * step });
    expect((await h.request("POST", `/v1/${db}/auth/mfa/totp/confirm`, { ...bearer(token), body: { code: await code(0) } })).status).toBe(200);
    const { exchanged } = await signIn("oidc");
    expect(exchanged.body).toEqual({ mfa_required: true, mfa_token: expect.any(String), expires_in: 300 });
    const session = await h.request("POST", `/v1/${db}/auth/mfa/challenge`, { key: null, body: { mfa_token: exchanged.body.mfa_token, code: await code(1) } });
    expect(session.status, session.text).toBe(200);
    expect(session.body.user.email).toBe("mfa@example.com");
  });

  describe("under the sign-in limits (each case its own database: the limits count per database and address)", () => {
    const limitedDatabase = async (label: string) => {
      const instance = await createDatabase(h, `oauth limit ${label} ${engine}`, [
        { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      ]);
      await enableAuth(h, instance, { redirect_urls: [APP], providers: [{ id: "github", client_id: "gh-client", client_secret: "gh-secret" }] });
      return instance;
    };
    const expectLimited = async (response: Response) => {
      expect(response.status).toBe(429);
      expect((await response.json()).error).toBe("rate_limited");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    };

    it("start: 10 abandoned starts from one address are allowed, the 11th is 429 with Retry-After", async () => {
      const limited = await limitedDatabase("start");
      for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect((await start("github", APP, limited)).response.status).toBe(302);
      await expectLimited((await start("github", APP, limited)).response);
    });

    it("callback: 10 refused states from one address are 400, the 11th is 429 before the state is read", async () => {
      const limited = await limitedDatabase("callback");
      const bogus = (i: number) => fetch(`${h.baseUrl}/v1/${limited}/auth/oauth/github/callback?code=x&state=forged-${i}`, { redirect: "manual", headers: fromClient() });
      for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect((await bogus(i)).status).toBe(400);
      await expectLimited(await bogus(99));
    });

    it("a sign-in that comes back gives its start and callback attempts back", async () => {
      const limited = await limitedDatabase("forgive");
      // 8 abandoned starts, then a sign-in's start and callback are the 9th and 10th attempts.
      for (let i = 0; i < SIGN_IN_ATTEMPTS - 2; i++) expect((await start("github", APP, limited)).response.status).toBe(302);
      github.state.user = { id: 777, login: "limits", email: null };
      github.state.emails = [{ email: `limits-${engine}@example.com`, primary: true, verified: true }];
      const { exchanged } = await signIn("github", limited);
      expect(exchanged.status, exchanged.text).toBe(200);
      // Both given back: two more starts fit before the limit.
      for (let i = 0; i < 2; i++) expect((await start("github", APP, limited)).response.status).toBe(302);
      await expectLimited((await start("github", APP, limited)).response);
    });
  });

  it("a provider that is down: 502 provider_unavailable at the start (discovery) and at the callback (token), no user created", async () => {
    const down = await createDatabase(h, `oauth down ${engine}`, [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
    ]);
    await enableAuth(h, down, { redirect_urls: [APP], providers: [{ id: "oidc", client_id: "c", client_secret: "s", issuer: "http://127.0.0.1:9/nothing-listens" }] });
    const { response } = await start("oidc", APP, down);
    expect(response.status).toBe(502);
    expect((await response.json()).error).toBe("provider_unavailable");

    provider.signInAs({ sub: "sub-down", email: "down@example.com", email_verified: true });
    const before = (await users()).length;
    const { callback, jar } = await toCallback("oidc");
    await provider.close();
    const back = await callBack(callback, jar);
    expect(back.status).toBe(502);
    expect((await back.json()).error).toBe("provider_unavailable");
    expect((await users()).length).toBe(before);
    expect((await users(down)).length).toBe(0);
  });
});
