// OAuth client secrets are write-only in the management API: the auth settings and the definition answer a mask
// to the owner and to a viewer, a PUT that leaves the secret out or sends the mask back keeps the stored one (and
// sign-in through the provider still works with it), and a new provider without a secret is a 422.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect422 } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { followRedirects, type OidcTestProvider, startOidcProvider } from "../helpers/oidc-test-provider";
import { type Account, addMember, newAccount } from "../teams/team-fixture";

const APP = "https://app.example.test/auth/done";
const MASK = "********";

describe.each(ENGINES)("OAuth client secrets are write-only on %s", (engine) => {
  let h: Harness;
  let provider: OidcTestProvider;
  let owner: Account;
  let db: string;
  let seq = 0;

  const settings = (providers: unknown[]) => ({ enabled: true, users_table: "users", login_column: "email", password_column: "password", signup: true, redirect_urls: [APP], providers });
  const putAuth = (providers: unknown[]) => h.request("PUT", `/api/v1/databases/${db}/auth`, { key: owner.key, body: settings(providers) });

  /** Signs a new user in through the oidc provider: the exchange's status. */
  const signIn = async () => {
    const email = `oauth${++seq}@example.com`;
    provider.signInAs({ sub: `sub-${seq}`, email, email_verified: true });
    const started = await fetch(`${h.baseUrl}/v1/${db}/auth/oauth/oidc?redirect_to=${encodeURIComponent(APP)}`, { redirect: "manual" });
    const jar = new Map(started.headers.getSetCookie().map((c) => c.split(";")[0].split("=") as [string, string]));
    const callback = await followRedirects(started.headers.get("location")!, `${h.baseUrl}/v1/${db}/auth/oauth/oidc/callback`);
    const back = await fetch(callback, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    const code = new URL(back.headers.get("location") ?? "http://x/").searchParams.get("code");
    return (await h.request("POST", `/v1/${db}/auth/oauth/exchange`, { key: null, body: { code } })).status;
  };

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    const created = await h.request("POST", "/api/v1/databases", {
      key: owner.key,
      body: { name: `secrets ${engine}`, tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }] },
    });
    expect(created.status, created.text).toBe(201);
    db = created.body.instance;
    provider = await startOidcProvider([`${h.baseUrl}/v1/${db}/auth/oauth/oidc/callback`]);
    const put = await putAuth([{ id: "oidc", client_id: provider.clientId, client_secret: provider.clientSecret, issuer: provider.issuer }]);
    expect(put.status, put.text).toBe(200);
    expect(put.body.providers).toEqual([{ id: "oidc", client_id: provider.clientId, client_secret: MASK, issuer: provider.issuer }]);
  }, 60_000);
  afterAll(async () => {
    await provider?.close();
    await h?.close();
  });

  it("the owner reads the settings and the definition with the secret masked", async () => {
    for (const path of [`/api/v1/databases/${db}/auth`, `/api/v1/databases/${db}/definition`]) {
      const reply = await h.request("GET", path, { key: owner.key });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).not.toContain(provider.clientSecret);
      const providers = path.endsWith("auth") ? reply.body.providers : reply.body.auth.providers;
      expect(providers[0].client_secret).toBe(MASK);
    }
  });

  it("a viewer reads the settings without the secret; the same viewer cannot replace them", async () => {
    const viewer = await addMember(h, owner, "viewer");
    const reply = await h.request("GET", `/api/v1/databases/${db}/auth`, { key: viewer.key });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).not.toContain(provider.clientSecret);
    const put = await h.request("PUT", `/api/v1/databases/${db}/auth`, { key: viewer.key, body: settings([]) });
    expect(put.status).toBe(403);
  });

  it("a PUT without the secret, or with the mask sent back, keeps it: sign-in through the provider still works", async () => {
    expect(await signIn()).toBe(200);
    const without = await putAuth([{ id: "oidc", client_id: provider.clientId, issuer: provider.issuer }]);
    expect(without.status, without.text).toBe(200);
    expect(await signIn()).toBe(200);
    const masked = await putAuth([{ id: "oidc", client_id: provider.clientId, client_secret: MASK, issuer: provider.issuer }]);
    expect(masked.status, masked.text).toBe(200);
    expect(await signIn()).toBe(200);
  });

  it("a wrong new secret is stored (sign-in then fails at the provider); the right one makes it work again", async () => {
    expect((await putAuth([{ id: "oidc", client_id: provider.clientId, client_secret: "wrong-secret", issuer: provider.issuer }])).status).toBe(200);
    expect(await signIn()).not.toBe(200);
    expect((await putAuth([{ id: "oidc", client_id: provider.clientId, client_secret: provider.clientSecret, issuer: provider.issuer }])).status).toBe(200);
    expect(await signIn()).toBe(200);
  });

  it("a new provider without a secret is a 422 naming it, and nothing is saved", async () => {
    const reply = await putAuth([
      { id: "oidc", client_id: provider.clientId, issuer: provider.issuer },
      { id: "github", client_id: "gh-client" },
    ]);
    expect422(reply, "providers[1].client_secret");
    const after = await h.request("GET", `/api/v1/databases/${db}/auth`, { key: owner.key });
    expect(after.body.providers.map((p: { id: string }) => p.id)).toEqual(["oidc"]);
  });
});
