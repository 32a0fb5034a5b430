// Sign-up from an invite link, through the Next route handlers the invite page calls (called in-process with
// web Requests; the app is the harness's, through globalThis.__tabulaApp): a usable invite opens sign-up
// even when it is closed and makes the new account a member; a dead one creates nothing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, error, expireInvite, GONE, invite, members, newAccount, outcome, UNKNOWN_INVITE } from "./team-fixture";

type RouteModule = { POST?: (r: Request) => Promise<Response>; GET?: (r: Request) => Promise<Response> };

const call = async (handler: ((r: Request) => Promise<Response>) | undefined, request: Request) => {
  const response = await handler!(request);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

const CLOSED = error(403, "forbidden", "Sign-up is closed on this install; ask its operator to create your account.");
const PASSWORD = "correct horse battery";

describe.each(ENGINES)("sign-up from an invite on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let signupRoute: RouteModule;
  let inviteRoute: RouteModule;

  beforeAll(async () => {
    h = await startHarness(engine, "route");
    signupRoute = await import("../../app/api/session/signup/route");
    inviteRoute = await import("../../app/api/session/invite/route");
    owner = await newAccount(h, "team");
    // Sign-up is closed by default: only the operator adds accounts.
    expect((await h.request("GET", "/api/v1/settings")).body).toEqual({ signup: "operator" });
  }, 60_000);
  afterAll(async () => h?.close());

  const signUp = (body: Record<string, unknown>) =>
    call(signupRoute.POST, new Request("http://tabula.test/api/session/signup", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  const describeInvite = (token: string) => call(inviteRoute.GET, new Request(`http://tabula.test/api/session/invite?token=${encodeURIComponent(token)}`));
  const freshEmail = () => `signup-${randomBytes(5).toString("hex")}@example.com`;
  const accountEmails = async () => ((await h.request("GET", "/api/v1/accounts")).body as { email: string }[]).map((a) => a.email);
  const inviteStatus = async (id: number) =>
    ((await h.request("GET", "/api/v1/team/invites", { key: owner.key })).body as { id: number; uses: number; status: string; expires_at: string }[]).find((i) => i.id === id)!;

  describe("GET /api/session/invite", () => {
    it("describes a usable invite: whose workspace, the role, its status and expiry", async () => {
      const made = await invite(h, owner.key, { role: "editor" });
      const listed = await inviteStatus(made.id);
      expect(await describeInvite(made.token)).toEqual({
        status: 200,
        body: { workspace: { owner: { id: owner.accountId, email: owner.email } }, role: "editor", status: "pending", expires_at: listed.expires_at, email: null },
      });
    });

    it("names the address an emailed invite went to, so the sign-up form starts with it", async () => {
      const made = await invite(h, owner.key, { role: "viewer", email: "Invited.Person@Example.com" });
      expect((await describeInvite(made.token)).body).toMatchObject({ role: "viewer", status: "pending", email: "invited.person@example.com" });
    });

    it("describes a revoked, an expired and a used-up invite with their status", async () => {
      const revoked = await invite(h, owner.key, { role: "viewer" });
      await h.request("DELETE", `/api/v1/team/invites/${revoked.id}`, { key: owner.key });
      const expired = await invite(h, owner.key, { role: "viewer" });
      await expireInvite(h, expired.id);
      const used = await invite(h, owner.key, { role: "viewer" });
      await h.request("POST", "/api/v1/team/invites/accept", { key: (await newAccount(h)).key, body: { token: used.token } });
      expect((await describeInvite(revoked.token)).body.status).toBe("revoked");
      expect((await describeInvite(expired.token)).body.status).toBe("expired");
      expect((await describeInvite(used.token)).body.status).toBe("used_up");
    });

    it.each(["inv_unknown", ""])("answers 404 to the token %j", async (token) => {
      expect(await describeInvite(token)).toEqual(UNKNOWN_INVITE);
    });
  });

  describe("POST /api/session/signup", () => {
    it("creates the account from a usable invite while sign-up is closed, and makes it a member with the invite's role", async () => {
      const made = await invite(h, owner.key, { role: "editor" });
      const email = freshEmail();
      const reply = await signUp({ email, password: PASSWORD, invite: made.token });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ email, is_operator: false });
      expect((await members(h, owner)).find((m) => m.account.email === email)).toMatchObject({ account: { id: reply.body.id, email }, role: "editor", invited_by: owner.accountId });
      expect(await inviteStatus(made.id)).toMatchObject({ uses: 1, status: "used_up" });
    });

    it.each(["expired", "revoked", "used_up"] as const)("creates nothing from an invite that is %s: 410", async (state) => {
      const made = await invite(h, owner.key, { role: "viewer" });
      if (state === "expired") await expireInvite(h, made.id);
      if (state === "revoked") await h.request("DELETE", `/api/v1/team/invites/${made.id}`, { key: owner.key });
      if (state === "used_up") await h.request("POST", "/api/v1/team/invites/accept", { key: (await newAccount(h)).key, body: { token: made.token } });
      const email = freshEmail();
      expect(outcome(await signUp({ email, password: PASSWORD, invite: made.token }))).toEqual(GONE[state]);
      expect(await accountEmails()).not.toContain(email);
      // The invite is checked first: a taken email learns nothing more than the dead link.
      expect(outcome(await signUp({ email: owner.email, password: PASSWORD, invite: made.token }))).toEqual(GONE[state]);
    });

    it("creates nothing from an unknown invite: 404", async () => {
      const email = freshEmail();
      expect(outcome(await signUp({ email, password: PASSWORD, invite: "inv_unknown" }))).toEqual(UNKNOWN_INVITE);
      expect(await accountEmails()).not.toContain(email);
    });

    it("refuses sign-up without an invite while sign-up is closed (403), and allows it once the operator opens it", async () => {
      const refused = freshEmail();
      expect(outcome(await signUp({ email: refused, password: PASSWORD }))).toEqual(CLOSED);
      expect(await accountEmails()).not.toContain(refused);
      expect((await h.request("PATCH", "/api/v1/settings", { body: { signup: "open" } })).status).toBe(200);
      try {
        const allowed = freshEmail();
        const reply = await signUp({ email: allowed, password: PASSWORD });
        expect(reply.status).toBe(201);
        expect(await accountEmails()).toContain(allowed);
      } finally {
        await h.request("PATCH", "/api/v1/settings", { body: { signup: "operator" } });
      }
    });

    it("uses nothing of the invite when the account cannot be created (email taken, bad password)", async () => {
      const made = await invite(h, owner.key, { role: "viewer" });
      const taken = await signUp({ email: owner.email, password: PASSWORD, invite: made.token });
      expect(taken.status).toBe(409);
      const weak = freshEmail();
      const bad = await signUp({ email: weak, password: "short", invite: made.token });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual([{ field: "password", code: "too_short", message: "password must be at least 8 characters long" }]);
      expect(await accountEmails()).not.toContain(weak);
      expect(await inviteStatus(made.id)).toMatchObject({ uses: 0, status: "pending" });
    });

    it("creates one account from a single-use invite signed up with twice at once", async () => {
      const made = await invite(h, owner.key, { role: "viewer" });
      const emails = [freshEmail(), freshEmail()];
      const replies = await Promise.all(emails.map((email) => signUp({ email, password: PASSWORD, invite: made.token })));
      expect(replies.map((r) => r.status).sort()).toEqual([201, 410]);
      const all = await accountEmails();
      expect(emails.filter((e) => all.includes(e))).toHaveLength(1);
      expect((await members(h, owner)).filter((m) => emails.includes(m.account.email))).toHaveLength(1);
    });
  });
});
