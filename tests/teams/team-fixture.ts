// Shared pieces of the team suites: workspace owners on a plan, invites and members made through the
// management API, and the exact error bodies the team routes answer.
import { expect } from "vitest";
import type { Harness, Reply } from "../helpers/harness";

export type Account = { accountId: number; key: string; email: string };

/** A new account (not the operator) with its email, moved to `plan` when given (by the operator, the harness's first account). */
export const newAccount = async (h: Harness, plan?: string): Promise<Account> => {
  const { accountId, key } = await h.createAccount();
  if (plan) {
    const reply = await h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan } });
    expect(reply.status, reply.text).toBe(200);
  }
  const me = await h.request("GET", "/api/v1/account", { key });
  return { accountId, key, email: me.body.email };
};

const inWorkspace = (path: string, workspace?: number) => (workspace === undefined ? path : `${path}?workspace=${workspace}`);

export const createInvite = (h: Harness, key: string, body: Record<string, unknown>, workspace?: number) =>
  h.request("POST", inWorkspace("/api/v1/team/invites", workspace), { key, body });

/** An invite that must succeed: 201, and its body. */
export const invite = async (h: Harness, key: string, body: Record<string, unknown>, workspace?: number) => {
  const reply = await createInvite(h, key, body, workspace);
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: number; token: string; url: string; role: string; max_uses: number; uses: number; status: string; email_sent: boolean };
};

export const accept = (h: Harness, key: string, token: string) => h.request("POST", "/api/v1/team/invites/accept", { key, body: { token } });

/** A new account made a member of `owner`'s workspace with `role` (the owner invites, the account accepts). */
export const addMember = async (h: Harness, owner: Account, role: string): Promise<Account> => {
  const member = await newAccount(h);
  const { token } = await invite(h, owner.key, { role });
  const reply = await accept(h, member.key, token);
  expect(reply.status, reply.text).toBe(200);
  return member;
};

export const members = async (h: Harness, owner: Account) => {
  const reply = await h.request("GET", "/api/v1/team/members", { key: owner.key });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { account: { id: number; email: string }; role: string; invited_by: number | null; joined_at: string }[];
};

export const setRole = (h: Harness, owner: Account, member: Account, role: string) =>
  h.request("PATCH", `/api/v1/team/members/${member.accountId}`, { key: owner.key, body: { role } });

export const removeMember = (h: Harness, owner: Account, member: Account) => h.request("DELETE", `/api/v1/team/members/${member.accountId}`, { key: owner.key });

/** Moves an invite's expiry into the past: the API's shortest expiry is an hour, and the clock is the server's. */
export const expireInvite = async (h: Harness, id: number) => {
  await h.app.engine.meta.updateTable("invites").set({ expires_at: new Date(Date.now() - 1_000).toISOString() }).where("id", "=", id).execute();
};

/** The status and the whole body of an answer, to compare with an exact error in one assertion. */
export const outcome = (reply: Pick<Reply, "status" | "body">) => ({ status: reply.status, body: reply.body });

export const error = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => ({ status, body: { error: code, message, ...extra } });

export const GONE = {
  expired: error(410, "invite_expired", "This invite has expired; ask for a new one."),
  revoked: error(410, "invite_expired", "This invite was revoked; ask for a new one."),
  used_up: error(410, "invite_expired", "This invite was already used; ask for a new one."),
};

export const UNKNOWN_INVITE = error(404, "not_found", "No such invite; check the link.");
