// Invites to a workspace: the link and what accepting it does, every way an invite can be dead (404, 410),
// the accepts that are refused (409), one workspace never reaching another's, and concurrent accepts.
// Real HTTP against a real SQLite folder or MariaDB schema.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import {
  accept,
  addMember,
  createInvite,
  error,
  expireInvite,
  GONE,
  invite,
  members,
  newAccount,
  outcome,
  removeMember,
  setRole,
  UNKNOWN_INVITE,
} from "./team-fixture";

describe.each(ENGINES)("invites on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => h?.close());

  const workspacesOf = async (key: string) => (await h.request("GET", "/api/v1/team/workspaces", { key })).body as { owner: { id: number }; role: string }[];

  describe("creating and accepting", () => {
    it("creates a single-use link valid for 168 hours by default", async () => {
      const owner = await newAccount(h, "team");
      const before = Date.now();
      const reply = await createInvite(h, owner.key, { role: "editor" });
      expect(reply.status, reply.text).toBe(201);
      const { token, url, expires_at, id, created_at, ...rest } = reply.body;
      expect(token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/invite/${token}$`));
      expect(Date.parse(expires_at) - before).toBeGreaterThanOrEqual(168 * 3_600_000);
      expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(168 * 3_600_000);
      expect(id).toBeTypeOf("number");
      expect(Date.parse(created_at)).toBeGreaterThanOrEqual(before - 1_000);
      expect(rest).toEqual({ role: "editor", email: null, max_uses: 1, uses: 0, status: "pending", email_sent: false });
    });

    it("makes the invitee a member with the invite's role, listed on both sides, and uses the invite up", async () => {
      const owner = await newAccount(h, "team");
      const invitee = await newAccount(h);
      const { id, token } = await invite(h, owner.key, { role: "editor" });
      const accepted = await accept(h, invitee.key, token);
      expect(outcome(accepted)).toEqual({ status: 200, body: { workspace: { owner: { id: owner.accountId, email: owner.email } }, role: "editor" } });
      const [member, ...others] = await members(h, owner);
      expect(others).toEqual([]);
      expect(member).toMatchObject({ account: { id: invitee.accountId, email: invitee.email }, role: "editor", invited_by: owner.accountId });
      expect(Number.isNaN(Date.parse(member.joined_at))).toBe(false);
      expect(await workspacesOf(invitee.key)).toEqual([{ owner: { id: owner.accountId, email: owner.email }, role: "editor", joined_at: member.joined_at }]);
      const listed = await h.request("GET", "/api/v1/team/invites", { key: owner.key });
      expect(listed.body.find((i: { id: number }) => i.id === id)).toMatchObject({ uses: 1, max_uses: 1, status: "used_up" });
    });

    it("lets an invite with max_uses 3 add three members, then refuses the fourth", async () => {
      const owner = await newAccount(h, "team");
      const { token } = await invite(h, owner.key, { role: "viewer", max_uses: 3 });
      for (let i = 0; i < 3; i++) expect((await accept(h, (await newAccount(h)).key, token)).status).toBe(200);
      expect(outcome(await accept(h, (await newAccount(h)).key, token))).toEqual(GONE.used_up);
      expect((await members(h, owner)).map((m) => m.role)).toEqual(["viewer", "viewer", "viewer"]);
    });

    it("lists invites that were not revoked, newest first, with their status", async () => {
      const owner = await newAccount(h, "team");
      const used = await invite(h, owner.key, { role: "viewer" });
      await accept(h, (await newAccount(h)).key, used.token);
      const expired = await invite(h, owner.key, { role: "viewer" });
      await expireInvite(h, expired.id);
      const revoked = await invite(h, owner.key, { role: "viewer" });
      expect((await h.request("DELETE", `/api/v1/team/invites/${revoked.id}`, { key: owner.key })).status).toBe(204);
      const pending = await invite(h, owner.key, { role: "admin", email: "Ana@Example.com", max_uses: 2 });
      const listed = await h.request("GET", "/api/v1/team/invites", { key: owner.key });
      expect(listed.status).toBe(200);
      expect(listed.body.map((i: { id: number; status: string }) => [i.id, i.status])).toEqual([
        [pending.id, "pending"],
        [expired.id, "expired"],
        [used.id, "used_up"],
      ]);
      expect(listed.body[0]).toMatchObject({ role: "admin", email: "ana@example.com", max_uses: 2, uses: 0, token: pending.token, url: pending.url });
    });
  });

  describe("dead and refused invites", () => {
    /** How each dead invite is made: the owner's invite, then what kills it. */
    const DEAD = [
      { name: "expired", kill: async (_owner: string, id: number) => expireInvite(h, id) },
      { name: "revoked", kill: async (owner: string, id: number) => void (await h.request("DELETE", `/api/v1/team/invites/${id}`, { key: owner })) },
      { name: "used_up", kill: async (_owner: string, _id: number, token: string) => void (await accept(h, (await newAccount(h)).key, token)) },
    ] as const;

    it.each(DEAD)("answers 410 invite_expired to an invite that is $name, and adds no member", async ({ name, kill }) => {
      const owner = await newAccount(h, "team");
      const { id, token } = await invite(h, owner.key, { role: "editor" });
      await kill(owner.key, id, token);
      const before = await members(h, owner);
      const invitee = await newAccount(h);
      expect(outcome(await accept(h, invitee.key, token))).toEqual(GONE[name]);
      expect(await members(h, owner)).toEqual(before);
      expect(await workspacesOf(invitee.key)).toEqual([]);
    });

    it("answers 404 to an unknown token", async () => {
      const invitee = await newAccount(h);
      expect(outcome(await accept(h, invitee.key, "inv_no-such-token"))).toEqual(UNKNOWN_INVITE);
      expect(await workspacesOf(invitee.key)).toEqual([]);
    });

    it("refuses a second accept by a member with 409 and uses nothing", async () => {
      const owner = await newAccount(h, "team");
      const invitee = await newAccount(h);
      const { id, token } = await invite(h, owner.key, { role: "viewer", max_uses: 2 });
      expect((await accept(h, invitee.key, token)).status).toBe(200);
      expect(outcome(await accept(h, invitee.key, token))).toEqual(error(409, "conflict", "You are already a member of this workspace (as viewer)."));
      const listed = await h.request("GET", "/api/v1/team/invites", { key: owner.key });
      expect(listed.body.find((i: { id: number }) => i.id === id)).toMatchObject({ uses: 1, status: "pending" });
      // A member accepting another invite keeps its role: the second invite's does not replace it.
      const other = await invite(h, owner.key, { role: "admin" });
      expect((await accept(h, invitee.key, other.token)).status).toBe(409);
      expect((await members(h, owner)).map((m) => m.role)).toEqual(["viewer"]);
    });

    it("refuses the owner accepting its own invite with 409 and uses nothing", async () => {
      const owner = await newAccount(h, "team");
      const { id, token } = await invite(h, owner.key, { role: "admin" });
      expect(outcome(await accept(h, owner.key, token))).toEqual(error(409, "conflict", "This is your own workspace: you own every database in it already."));
      expect(await members(h, owner)).toEqual([]);
      const listed = await h.request("GET", "/api/v1/team/invites", { key: owner.key });
      expect(listed.body.find((i: { id: number }) => i.id === id)).toMatchObject({ uses: 0, status: "pending" });
    });

    it("lets a removed member join again from a new invite", async () => {
      const owner = await newAccount(h, "team");
      const member = await addMember(h, owner, "editor");
      expect((await removeMember(h, owner, member)).status).toBe(204);
      const { token } = await invite(h, owner.key, { role: "viewer" });
      expect((await accept(h, member.key, token)).status).toBe(200);
      expect((await members(h, owner)).map((m) => [m.account.id, m.role])).toEqual([[member.accountId, "viewer"]]);
    });
  });

  describe("one workspace at a time", () => {
    it("answers 404 to revoking another workspace's invite by its id, and the invite keeps working", async () => {
      const [owner, stranger] = [await newAccount(h, "team"), await newAccount(h, "team")];
      const { id, token } = await invite(h, owner.key, { role: "viewer" });
      expect(outcome(await h.request("DELETE", `/api/v1/team/invites/${id}`, { key: stranger.key }))).toEqual(error(404, "not_found", `Invite ${id} was not found.`));
      expect((await accept(h, (await newAccount(h)).key, token)).status).toBe(200);
    });

    it("answers 404 to changing or removing another workspace's member, and leaves the member as it was", async () => {
      const [owner, stranger] = [await newAccount(h, "team"), await newAccount(h, "team")];
      const member = await addMember(h, owner, "editor");
      const notHere = error(404, "not_found", `Account ${member.accountId} is not a member of this workspace.`);
      expect(outcome(await setRole(h, stranger, member, "viewer"))).toEqual(notHere);
      expect(outcome(await removeMember(h, stranger, member))).toEqual(notHere);
      expect((await members(h, owner)).map((m) => [m.account.id, m.role])).toEqual([[member.accountId, "editor"]]);
    });

    it("lets an admin invite into the owner's workspace: the invite is the owner's, listed and revocable by the owner", async () => {
      const owner = await newAccount(h, "team");
      const admin = await addMember(h, owner, "admin");
      const made = await invite(h, admin.key, { role: "editor" }, owner.accountId);
      const listed = await h.request("GET", "/api/v1/team/invites", { key: owner.key });
      expect(listed.body.map((i: { id: number }) => i.id)).toContain(made.id);
      expect((await h.request("GET", "/api/v1/team/invites", { key: admin.key })).body).toEqual([]);
      const joiner = await newAccount(h);
      expect(outcome(await accept(h, joiner.key, made.token))).toEqual({ status: 200, body: { workspace: { owner: { id: owner.accountId, email: owner.email } }, role: "editor" } });
      expect((await members(h, owner)).find((m) => m.account.id === joiner.accountId)).toMatchObject({ role: "editor", invited_by: admin.accountId });
    });
  });

  describe("concurrent accepts", () => {
    it("makes exactly one member from a max_uses 1 invite accepted by two accounts at once", async () => {
      const owner = await newAccount(h, "team");
      const [a, b] = [await newAccount(h), await newAccount(h)];
      const { token } = await invite(h, owner.key, { role: "editor" });
      const replies = await Promise.all([accept(h, a.key, token), accept(h, b.key, token)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 410]);
      expect(outcome(replies.find((r) => r.status === 410)!)).toEqual(GONE.used_up);
      const list = await members(h, owner);
      expect(list).toHaveLength(1);
      const winner = replies[0].status === 200 ? a : b;
      expect(list[0].account.id).toBe(winner.accountId);
    });

    it("makes exactly one member from eight accounts racing for one seat", async () => {
      const owner = await newAccount(h, "team");
      const accounts = await Promise.all(Array.from({ length: 8 }, () => newAccount(h)));
      const { token } = await invite(h, owner.key, { role: "viewer" });
      const replies = await Promise.all(accounts.map((a) => accept(h, a.key, token)));
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      expect(replies.filter((r) => r.status === 410)).toHaveLength(7);
      expect(await members(h, owner)).toHaveLength(1);
    });

    it("answers 409 to the same account accepting two invites at once, and makes it a member once", async () => {
      const owner = await newAccount(h, "team");
      const invitee = await newAccount(h);
      const [one, two] = [await invite(h, owner.key, { role: "viewer" }), await invite(h, owner.key, { role: "editor" })];
      const replies = await Promise.all([accept(h, invitee.key, one.token), accept(h, invitee.key, two.token)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await members(h, owner)).toHaveLength(1);
      // The refused accept used nothing: its invite is still pending.
      const listed = await h.request("GET", "/api/v1/team/invites", { key: owner.key });
      expect(listed.body.map((i: { status: string }) => i.status).sort()).toEqual(["pending", "used_up"]);
    });
  });
});
