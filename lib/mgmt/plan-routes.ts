import { z } from "zod";
import { receiveBillingWebhook } from "../billing/webhook";
import { grantAccountCredits } from "../services/credits/grant-account-credits";
import { readAccountCredits } from "../services/credits/read-account-credits";
import { listPlans } from "../services/plans/list-plans";
import { putPlan } from "../services/plans/put-plan";
import { setAccountPlan } from "../services/plans/set-account-plan";
import { defineRoute } from "./route";
import { Account } from "../contract/schemas/accounts";
import { AccountPlanPatch, BillingWebhook, CreditGrant, CreditGrantCreate, CreditLedger, Plan, PlanPut } from "../contract/schemas/plans";

export const PLAN_ROUTES = [
  defineRoute({
    method: "GET", path: "plans", permission: "authenticated", tag: "Plans", operationId: "listPlans",
    summary: "List plans", description: "Every plan of this install with its limits (null = unlimited).",
    status: 200, response: z.array(Plan),
    run: (ctx) => listPlans(ctx, {}),
  }),
  defineRoute({
    method: "PUT", path: "plans/:plan", permission: "operator", tag: "Plans", operationId: "putPlan",
    summary: "Create or replace a plan (operator)", description: "Sets every limit of the plan; accounts on it get the new limits at their next request.",
    body: PlanPut, status: 200, response: Plan,
    run: (ctx, { plan, body }) => putPlan(ctx, { plan, body }),
  }),
  defineRoute({
    method: "PATCH", path: "accounts/:account", permission: "operator", tag: "Plans", operationId: "setAccountPlan",
    summary: "Change an account's plan (operator)", description: "Moves the account to another plan; an unknown plan is 422. Databases over the new limit stay, new ones are refused.",
    body: AccountPlanPatch, status: 200, response: Account,
    run: (ctx, { account, body }) => setAccountPlan(ctx, { account, body }),
  }),
  defineRoute({
    method: "POST", path: "accounts/:account/credits", permission: "operator", tag: "Plans", operationId: "grantCredits",
    summary: "Grant credits (operator)", description: "Adds one-time credits that never expire while the account is active. With `source`, granting the same source again adds nothing (`duplicate: true`).",
    body: CreditGrantCreate, status: 201, response: CreditGrant,
    run: (ctx, { account, body }) => grantAccountCredits(ctx, { account, body }),
  }),
  defineRoute({
    method: "GET", path: "account/credits", permission: "account:read", tag: "Plans", operationId: "listCredits",
    summary: "The credits ledger", description: "Every grant, hold, spend and release of the account's credits, newest first, with the balances.",
    status: 200, response: CreditLedger,
    run: (ctx) => readAccountCredits(ctx, {}),
  }),
  defineRoute({
    method: "POST", path: "billing/webhook", permission: "billing", tag: "Plans", operationId: "billingWebhook",
    summary: "Billing webhook", description: "Your payment provider (or the code in between) reports a purchase: the credits go to the account named by id or email. A replayed call with the same `source` grants once.",
    body: BillingWebhook, status: 201, response: CreditGrant, errors: ["not_found"],
    run: (ctx, { body }) => receiveBillingWebhook(ctx, { body }),
  }),
];
