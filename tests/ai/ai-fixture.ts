// Shared steps of the AI builder suites: an account on a plan of its own, its AI-call usage and ledger, and
// its builds, all read through the management API as the account sees them.
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { Harness } from "../helpers/harness";

export type Account = { accountId: number; key: string };

const ROOMY = { max_databases: null, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: null, requests_per_second: null };

type PlanLimits = { ai_calls_per_month: number | null; max_databases?: number | null; max_invitees?: number | null; roles?: string[] };

/** A new account on a new plan of its own (operator calls): the limits given, the rest roomy (`null`: unlimited). */
export const accountOnPlan = async (h: Harness, limits: PlanLimits): Promise<Account & { plan: string }> => {
  const name = `ai-${randomBytes(3).toString("hex")}`;
  const put = await h.request("PUT", `/api/v1/plans/${name}`, { body: { ...ROOMY, ...limits } });
  expect(put.status, put.text).toBe(200);
  const account = await h.createAccount();
  const moved = await h.request("PATCH", `/api/v1/accounts/${account.accountId}`, { body: { plan: name } });
  expect(moved.status, moved.text).toBe(200);
  return { ...account, plan: name };
};

export const grantAiCredit = async (h: Harness, accountId: number, amount = 1) => {
  const reply = await h.request("POST", `/api/v1/accounts/${accountId}/credits`, { body: { kind: "ai_calls", amount } });
  expect(reply.status, reply.text).toBe(201);
};

/** The account's AI calls this month and AI-call credit balance, as GET /account shows them. */
export const aiUsage = async (h: Harness, key: string) => {
  const { body } = await h.request("GET", "/api/v1/account", { key });
  return { calls: body.usage.ai_calls_this_month as number, credits: body.credits.ai_calls as number };
};

/** The account's AI-call ledger, oldest first, as `entry delta` pairs ("grant +1", "hold -1", ...). */
export const aiLedger = async (h: Harness, key: string) => {
  const { body } = await h.request("GET", "/api/v1/account/credits", { key });
  return (body.entries as { kind: string; entry: string; delta: number }[])
    .filter((e) => e.kind === "ai_calls")
    .reverse()
    .map((e) => `${e.entry} ${e.delta > 0 ? "+" : ""}${e.delta}`);
};

/** The account's builds, newest first. */
export const builds = async (h: Harness, key: string, status?: string) => {
  const reply = await h.request("GET", `/api/v1/ai/builds${status ? `?status=${status}` : ""}`, { key });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Record<string, any>[];
};

export const postBuild = (h: Harness, key: string, body: Record<string, unknown>) => h.request("POST", "/api/v1/ai/builds", { key, body });
