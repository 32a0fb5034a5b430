// The plan's caps on invites (docs/api.md, Teams): the roles an owner may give, and invitees = members plus the
// unused seats of pending invites (max_uses seats each), both 402; charged to the owner's plan whoever invites,
// and never passed by concurrent requests. Real HTTP against a real SQLite folder or MariaDB schema.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { accept, addMember, createInvite, error, expireInvite, invite, members, newAccount, outcome, removeMember, setRole } from "./team-fixture";

const INVITEE_ADVICE = "Revoke a pending invite, remove a member, or ask the operator of this install for a larger plan.";

const inviteesExceeded = (plan: string, limit: number, used: number, asked = "") =>
  error(402, "quota_exceeded", `Your ${plan} plan allows ${limit} invitees and this account has ${used}${asked}. ${INVITEE_ADVICE}`, {
    quota: { kind: "invitees", limit, used, credits: 0 },
  });

const roleRefused = (plan: string, role: string, allowed: string[]) =>
  error(402, "quota_exceeded", `Your ${plan} plan does not let you give the ${role} role (it allows: ${allowed.length ? allowed.join(", ") : "none"}). Ask the operator of this install for a larger plan.`, {
    quota: { kind: "roles", limit: allowed.length, used: 0, credits: 0 },
  });

describe.each(ENGINES)("invite quotas on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => h?.close());

  describe("the plan's roles", () => {
    it.each([
      { plan: "free", role: "viewer", allowed: [] },
      { plan: "pro", role: "admin", allowed: ["viewer", "editor"] },
    ])("refuses an invite for a role the $plan plan does not give ($role) with 402, and creates none", async ({ plan, role, allowed }) => {
      const owner = await newAccount(h, plan);
      expect(outcome(await createInvite(h, owner.key, { role }))).toEqual(roleRefused(plan, role, allowed));
      expect((await h.request("GET", "/api/v1/team/invites", { key: owner.key })).body).toEqual([]);
    });

    it("allows the roles the plan gives: viewer and editor on pro, admin on team", async () => {
      const pro = await newAccount(h, "pro");
      expect((await createInvite(h, pro.key, { role: "viewer" })).status).toBe(201);
      expect((await createInvite(h, pro.key, { role: "editor" })).status).toBe(201);
      const team = await newAccount(h, "team");
      expect((await createInvite(h, team.key, { role: "admin" })).status).toBe(201);
    });

    it("refuses raising a member to a role the plan does not give with 402, and keeps the role", async () => {
      const owner = await newAccount(h, "pro");
      const member = await addMember(h, owner, "viewer");
      expect(outcome(await setRole(h, owner, member, "admin"))).toEqual(roleRefused("pro", "admin", ["viewer", "editor"]));
      expect((await members(h, owner)).map((m) => m.role)).toEqual(["viewer"]);
      const raised = await setRole(h, owner, member, "editor");
      expect(raised.status, raised.text).toBe(200);
      expect(raised.body).toMatchObject({ account: { id: member.accountId, email: member.email }, role: "editor" });
    });
  });

  describe("the plan's invitee cap (pro: 3 members and unused invite seats)", () => {
    it("counts members plus the unused seats of pending invites, max_uses seats per invite", async () => {
      const owner = await newAccount(h, "pro");
      await addMember(h, owner, "viewer");
      const two = await invite(h, owner.key, { role: "editor", max_uses: 2 });
      expect(outcome(await createInvite(h, owner.key, { role: "viewer" }))).toEqual(inviteesExceeded("pro", 3, 3));
      // Accepting moves a seat from the invite to a member: still 3.
      expect((await accept(h, (await newAccount(h)).key, two.token)).status).toBe(200);
      expect(outcome(await createInvite(h, owner.key, { role: "viewer" }))).toEqual(inviteesExceeded("pro", 3, 3));
      // Revoking frees the invite's unused seat.
      expect((await h.request("DELETE", `/api/v1/team/invites/${two.id}`, { key: owner.key })).status).toBe(204);
      expect(outcome(await createInvite(h, owner.key, { role: "viewer", max_uses: 2 }))).toEqual(inviteesExceeded("pro", 3, 2, "; this asks for 2 more"));
      expect((await createInvite(h, owner.key, { role: "viewer" })).status).toBe(201);
      expect(outcome(await createInvite(h, owner.key, { role: "viewer" }))).toEqual(inviteesExceeded("pro", 3, 3));
    });

    it("frees seats when a member is removed or an invite expires", async () => {
      const owner = await newAccount(h, "pro");
      const member = await addMember(h, owner, "viewer");
      const pending = await invite(h, owner.key, { role: "viewer", max_uses: 2 });
      expect((await createInvite(h, owner.key, { role: "viewer" })).status).toBe(402);
      expect((await removeMember(h, owner, member)).status).toBe(204);
      expect((await createInvite(h, owner.key, { role: "viewer" })).status).toBe(201);
      expect((await createInvite(h, owner.key, { role: "viewer" })).status).toBe(402);
      await expireInvite(h, pending.id);
      expect((await createInvite(h, owner.key, { role: "viewer", max_uses: 2 })).status).toBe(201);
    });

    it("charges an admin's invites to the owner's plan, not the admin's", async () => {
      const owner = await newAccount(h, "team");
      const admin = await addMember(h, owner, "admin");
      // The admin's own free plan gives no role at all; the owner, moved to pro, has 1 of 3 seats used.
      expect((await h.request("PATCH", `/api/v1/accounts/${owner.accountId}`, { body: { plan: "pro" } })).status).toBe(200);
      expect(outcome(await createInvite(h, admin.key, { role: "viewer", max_uses: 3 }, owner.accountId))).toEqual(inviteesExceeded("pro", 3, 1, "; this asks for 3 more"));
      expect((await createInvite(h, admin.key, { role: "viewer", max_uses: 2 }, owner.accountId)).status).toBe(201);
    });

    it("refuses any invitee on free (0 invitees): the role is refused first", async () => {
      const owner = await newAccount(h, "free");
      expect((await createInvite(h, owner.key, { role: "viewer" })).body.quota.kind).toBe("roles");
      const account = await h.request("GET", "/api/v1/account", { key: owner.key });
      expect(account.body.plan).toMatchObject({ name: "free", max_invitees: 0, roles: [] });
    });

    it("counts the seats in GET /account as usage.invitees", async () => {
      const owner = await newAccount(h, "pro");
      await addMember(h, owner, "viewer");
      await invite(h, owner.key, { role: "viewer", max_uses: 2 });
      const account = await h.request("GET", "/api/v1/account", { key: owner.key });
      expect(account.body.usage.invitees).toBe(3);
    });

    it("never passes the cap with concurrent invites: 6 at once on pro make exactly 3", async () => {
      const owner = await newAccount(h, "pro");
      const replies = await Promise.all(Array.from({ length: 6 }, () => createInvite(h, owner.key, { role: "viewer" })));
      expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 201, 402, 402, 402]);
      expect((await h.request("GET", "/api/v1/team/invites", { key: owner.key })).body).toHaveLength(3);
    });
  });
});
