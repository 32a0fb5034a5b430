// No secrets in logs (both engines): no secret reaches a log line. A real server process (server.ts) gets every
// kind of secret in paths, queries and headers (invite links, secret keys, JWTs, reset links, access_token,
// webhook secrets); then its whole output is searched for each. The request lines are there, redacted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactText } from "../../lib/ops/redact";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startServerProcess } from "../helpers/server-process";
import { enableAuth, PASSWORD_A } from "../security/security-fixture";
import { invite, newAccount } from "../teams/team-fixture";

describe.each(ENGINES)("no secrets in the log on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("after every kind of secret has crossed a real server, its output holds none of them", async () => {
    const owner = await newAccount(h, "team");
    const { token: inviteToken } = await invite(h, owner.key, { role: "viewer" });
    const db = await createDatabase(h, `logs ${engine}`, [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
    ]);
    await enableAuth(h, db);
    expect((await h.request("POST", `/v1/${db}/users`, { body: { email: "a@example.com", password: PASSWORD_A } })).status).toBe(201);
    const resetToken = "rst_4f9c2a7d1e8b6c3f0a5d9e2b7c4f1a8d";
    const webhookSecret = "whsec_Zm9yLXRoZS1sb2ctdGVzdC1vbmx5LW5vdC1yZWFs";

    const server = await startServerProcess(h);
    const send = (path: string, init: RequestInit = {}) => fetch(server.base + path, init).then(async (r) => ({ status: r.status, text: await r.text() }));
    const login = await send(`/v1/${db}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "a@example.com", password: PASSWORD_A }) });
    expect(login.status, login.text).toBe(200);
    const jwt = JSON.parse(login.text).token as string;

    const crossings: [string, RequestInit?][] = [
      [`/invite/${inviteToken}`],
      [`/invite/${inviteToken}?from=mail`],
      [`/api/v1/team/invites/accept`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": h.accountKey }, body: JSON.stringify({ token: `${inviteToken}x` }) }],
      [`/api/v1/keys/${h.accountKey}`, { headers: { authorization: `Bearer ${h.accountKey}` } }],
      [`/v1/${db}/users?access_token=${jwt}`],
      [`/v1/${db}/users/${jwt}`, { headers: { authorization: `Bearer ${jwt}` } }],
      [`/reset/${resetToken}`],
      [`/reset-password?token=${resetToken}&email=a@example.com`],
      [`/api/v1/webhooks/${webhookSecret}`],
      [`/v1/${db}/auth/login?password=${PASSWORD_A}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "a@example.com", password: PASSWORD_A }) }],
    ];
    for (const [path, init] of crossings) await send(path, init);
    await server.stop();

    const output = server.output();
    const requestLines = server.logs().filter((l) => l.msg === "request");
    expect(requestLines.length).toBeGreaterThanOrEqual(crossings.length + 1);
    expect(requestLines.map((l) => l.path)).toContain("/invite/[redacted]");
    for (const secret of [inviteToken, h.accountKey, jwt, jwt.split(".")[2], resetToken, webhookSecret, PASSWORD_A]) {
      expect(output.includes(secret), `the log holds ${secret.slice(0, 12)}…:\n${output}`).toBe(false);
    }
  }, 60_000);
});

describe("redactText", () => {
  it.each([
    ["/invite/inv_AbC123-_xyz", "/invite/[redacted]"],
    ["key sk_0123456789abcdefABCDEF-_ used", "key sk_[redacted] used"],
    ["whsec_abcdefghijkl", "whsec_[redacted]"],
    ["Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "Bearer [redacted]"],
    ["token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "token [redacted-jwt]"],
    ["/v1/db/_changes?tables=a&access_token=abc.def&x=1", "/v1/db/_changes?tables=a&access_token=[redacted]&x=1"],
    ["/reset-password?token=abcdef", "/reset-password?token=[redacted]"],
    ["/v1/db/notes?title=hello", "/v1/db/notes?title=hello"],
  ])("%s → %s", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});
