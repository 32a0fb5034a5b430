// The users admin of database auth (/api/v1/databases/{instance}/auth/users…): listing and searching users with
// their state, and verify / disable / enable / send-reset / reset-mfa / end-sessions, over real HTTP on both engines. Allowed
// to the owner and an admin member; refused to an editor and a viewer (403), unknown to another account (404).
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, addMember, error, newAccount, outcome } from "../teams/team-fixture";

const PASSWORD = "user-password-1";
const NOT_ADMIN = error(403, "forbidden", "Your role on this database does not include database:admin.");

describe.each(ENGINES)("the users admin on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let db: string;
  let base: string;
  const ids: Record<string, number> = {};

  const as = (key: string, method: string, path: string, body?: unknown) => h.request(method, `${base}${path}`, { key, body });
  const login = (email: string) => h.request("POST", `/v1/${db}/auth/login`, { key: null, body: { email, password: PASSWORD } });
  const listed = async (query = "") => {
    const reply = await as(owner.key, "GET", `/users${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { users: { id: number; login: string; verified: boolean; disabled: boolean; mfa: boolean; sessions: number }[]; next_after: number | null };
  };
  const userOf = async (id: number) => (await listed()).users.find((u) => u.id === id)!;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    const created = await h.request("POST", "/api/v1/databases", {
      key: owner.key,
      body: { name: `users admin ${engine}`, tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }] },
    });
    expect(created.status, created.text).toBe(201);
    db = created.body.instance;
    base = `/api/v1/databases/${db}/auth`;
    const auth = await h.request("PUT", base, { key: owner.key, body: { enabled: true, users_table: "users", login_column: "email", password_column: "password", signup: true } });
    expect(auth.status, auth.text).toBe(200);
    for (const name of ["ada", "bob", "cyd", "dee"]) {
      const signup = await h.request("POST", `/v1/${db}/auth/signup`, { key: null, body: { email: `${name}@example.com`, password: PASSWORD } });
      expect(signup.status, signup.text).toBe(201);
      ids[name] = signup.body.user.id;
    }
  }, 60_000);
  afterAll(async () => h?.close());

  it("lists users in id order with their state, searches by login, pages with _after", async () => {
    const all = await listed();
    expect(all.users.map((u) => u.login)).toEqual(["ada@example.com", "bob@example.com", "cyd@example.com", "dee@example.com"]);
    expect(all.users[0]).toEqual({
      id: ids.ada, login: "ada@example.com", email: "ada@example.com", verified: false, disabled: false, providers: [], mfa: false, sessions: 1, created_at: expect.any(String),
    });
    expect(all.users[0]).not.toHaveProperty("password");
    expect(all.next_after).toBeNull();
    expect((await listed("?q=BOB")).users.map((u) => u.login)).toEqual(["bob@example.com"]);
    const first = await listed("?_limit=3");
    expect(first.users).toHaveLength(3);
    expect(first.next_after).toBe(ids.cyd);
    expect((await listed(`?_limit=3&_after=${first.next_after}`)).users.map((u) => u.login)).toEqual(["dee@example.com"]);
    expect(outcome(await as(owner.key, "GET", "/users?_limit=0")).status).toBe(422);
  });

  it("verify marks the email verified", async () => {
    const reply = await as(owner.key, "POST", `/users/${ids.ada}/verify`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.user).toEqual(expect.objectContaining({ id: ids.ada, verified: true }));
    expect((await userOf(ids.ada)).verified).toBe(true);
    const entry = await h.app.engine.meta.selectFrom("audit_log").select(["action", "target", "database_instance"]).where("action", "=", "auth_user.verify").orderBy("id", "desc").executeTakeFirst();
    expect(entry).toEqual({ action: "auth_user.verify", target: `users.${ids.ada}`, database_instance: db });
  });

  it("disable ends the user's sessions and refuses its sign-in; enable lets it sign in again", async () => {
    const session = await login("bob@example.com");
    expect(session.status).toBe(200);
    const disabled = await as(owner.key, "POST", `/users/${ids.bob}/disable`);
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.user).toEqual(expect.objectContaining({ disabled: true, sessions: 0 }));
    expect((await h.request("POST", `/v1/${db}/auth/refresh`, { key: null, body: { refresh_token: session.body.refresh_token } })).status).toBe(401);
    expect((await login("bob@example.com")).status).not.toBe(200);
    const enabled = await as(owner.key, "POST", `/users/${ids.bob}/enable`);
    expect(enabled.body.user).toEqual(expect.objectContaining({ disabled: false }));
    expect((await login("bob@example.com")).status).toBe(200);
  });

  it("DELETE …/sessions ends every session of the user (its refresh tokens fail); others keep theirs", async () => {
    const one = await login("cyd@example.com");
    const other = await login("dee@example.com");
    const ended = await as(owner.key, "DELETE", `/users/${ids.cyd}/sessions`);
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.user.sessions).toBe(0);
    expect((await h.request("POST", `/v1/${db}/auth/refresh`, { key: null, body: { refresh_token: one.body.refresh_token } })).status).toBe(401);
    expect((await h.request("POST", `/v1/${db}/auth/refresh`, { key: null, body: { refresh_token: other.body.refresh_token } })).status).toBe(200);
  });

  it("send-reset mails a reset link whose token resets the password; a disabled user is a 409 and gets no mail", async () => {
    const mails = async () => (await h.app.engine.meta.selectFrom("mailbox").selectAll().where("to_address", "=", "dee@example.com").where("kind", "=", "reset").execute()).length;
    const before = await mails();
    const sent = await as(owner.key, "POST", `/users/${ids.dee}/send-reset`);
    expect(sent.status, sent.text).toBe(200);
    const [mail] = await h.app.engine.meta.selectFrom("mailbox").selectAll().where("to_address", "=", "dee@example.com").where("kind", "=", "reset").orderBy("id", "desc").limit(1).execute();
    expect(await mails()).toBe(before + 1);
    const token = /[?&]token=([\w-]+)/.exec(mail.text)![1];
    const reset = await h.request("POST", `/v1/${db}/auth/password/reset`, { key: null, body: { token, password: "second-password-2" } });
    expect(reset.status, reset.text).toBe(200);

    await as(owner.key, "POST", `/users/${ids.dee}/disable`);
    expect(outcome(await as(owner.key, "POST", `/users/${ids.dee}/send-reset`))).toEqual(error(409, "conflict", "This user is disabled: enable it before sending a reset."));
    expect(await mails()).toBe(before + 1);
  });

  it("reset-mfa removes the user's authenticator and recovery codes: its sign-in asks for no code again; audited", async () => {
    const settings = { enabled: true, users_table: "users", login_column: "email", password_column: "password", signup: true, mfa: "optional" };
    expect((await h.request("PUT", base, { key: owner.key, body: settings })).status).toBe(200);
    const bearer = { key: null, headers: { authorization: `Bearer ${(await login("ada@example.com")).body.token}` } };
    const enrolled = await h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer);
    expect(enrolled.status, enrolled.text).toBe(200);
    const code = await generate({ secret: enrolled.body.secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await h.request("POST", `/v1/${db}/auth/mfa/totp/confirm`, { ...bearer, body: { code } })).status).toBe(200);
    expect((await login("ada@example.com")).body).toEqual(expect.objectContaining({ mfa_required: true }));
    expect((await userOf(ids.ada)).mfa).toBe(true);

    const reset = await as(owner.key, "POST", `/users/${ids.ada}/reset-mfa`);
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.user).toEqual(expect.objectContaining({ id: ids.ada, mfa: false }));
    const session = await login("ada@example.com");
    expect(session.status, session.text).toBe(200);
    expect(session.body).toEqual(expect.objectContaining({ token: expect.any(String) }));
    const left = await h.app.engine.meta.selectFrom("auth_recovery_codes").select("user_id").where("user_id", "=", ids.ada).execute();
    expect(left).toEqual([]);
    const entry = await h.app.engine.meta.selectFrom("audit_log").select(["action", "target", "database_instance"]).where("action", "=", "auth_user.mfa_reset").orderBy("id", "desc").executeTakeFirst();
    expect(entry).toEqual({ action: "auth_user.mfa_reset", target: `users.${ids.ada}`, database_instance: db });
  });

  it("an unknown user is 404; auth switched off is 409", async () => {
    expect(outcome(await as(owner.key, "POST", "/users/999999/verify"))).toEqual(error(404, "not_found", "No user with id 999999 in users."));
    const other = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: `no auth ${engine}` } });
    const off = await h.request("GET", `/api/v1/databases/${other.body.instance}/auth/users`, { key: owner.key });
    expect(outcome(off)).toEqual(error(409, "conflict", "Database auth is not enabled for this database; turn it on first."));
  });

  describe("who may", () => {
    const WRITES = ["verify", "disable", "enable", "send-reset", "reset-mfa"];

    it("an admin member lists users and acts on them", async () => {
      const admin = await addMember(h, owner, "admin");
      expect((await as(admin.key, "GET", "/users")).status).toBe(200);
      const reply = await as(admin.key, "POST", `/users/${ids.cyd}/verify`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.user.verified).toBe(true);
      expect((await as(admin.key, "DELETE", `/users/${ids.cyd}/sessions`)).status).toBe(200);
    });

    it.each(["editor", "viewer"])("a %s is refused (403) every users-admin route, and nothing changes", async (role) => {
      const member = await addMember(h, owner, role);
      const before = await listed();
      expect(outcome(await as(member.key, "GET", "/users"))).toEqual(NOT_ADMIN);
      for (const verb of WRITES) expect(outcome(await as(member.key, "POST", `/users/${ids.ada}/${verb}`))).toEqual(NOT_ADMIN);
      expect(outcome(await as(member.key, "DELETE", `/users/${ids.ada}/sessions`))).toEqual(NOT_ADMIN);
      expect(await listed()).toEqual(before);
    });

    it("another account gets 404 for the database, and nothing changes", async () => {
      const stranger = await newAccount(h);
      const before = await listed();
      expect((await as(stranger.key, "GET", "/users")).status).toBe(404);
      for (const verb of WRITES) expect((await as(stranger.key, "POST", `/users/${ids.ada}/${verb}`)).status).toBe(404);
      expect((await as(stranger.key, "DELETE", `/users/${ids.ada}/sessions`)).status).toBe(404);
      expect(await listed()).toEqual(before);
    });
  });
});
