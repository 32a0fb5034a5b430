import { z } from "zod";
import { applyBuild, createBuild, getBuild, listBuilds, replacePlan } from "../services/ai/builds";
import { getPlanner } from "../ai/get-planner";
import { defineRoute } from "./route";
import type { DraftPlan } from "../ai/plan";
import { AiBuild, AiBuildCreate, AiBuildListQuery, AiPlanEdit, AiPlanner, WorkspaceQueryForApply } from "../contract/schemas/ai";
import { Database } from "../contract/schemas/databases";

export const AI_ROUTES = [
  defineRoute({
    method: "POST", path: "ai/builds", permission: "workspace:write", workspaceFrom: "body", quota: "ai_calls", tag: "AI", operationId: "createAiBuild",
    summary: "Build from a prompt", description: "One agentic call: the model (AI_BASE_URL) or the offline planner turns the prompt into a plan of tables, dropdown options, references, joins and seed rows; with `apply` it is applied at once. Paid by the month's allowance, else by one held AI-call credit (charged on a plan, released on failure); 402 before any model call when neither is left; offline costs nothing. 422 `ai_plan_invalid` when no valid plan came out, 502 `ai_unavailable` when the model cannot be reached.",
    body: AiBuildCreate, status: 201, response: AiBuild, errors: ["not_found", "ai"],
    run: (ctx, { body }) => createBuild(ctx, { body }),
  }),
  defineRoute({
    method: "PUT", path: "ai/builds/:build/plan", permission: "workspace:write", workspaceFrom: "query", tag: "AI", operationId: "editAiBuildPlan",
    summary: "Edit a planned build", description: "Replaces a planned build's plan with the builder's edits (tables, columns, types, options, joins, seed rows), checked like a planned one: 422 `ai_plan_invalid` with every problem, and nothing saved. 409 once the build is applied or failed. Costs nothing.",
    query: WorkspaceQueryForApply, body: AiPlanEdit, status: 200, response: AiBuild, errors: ["not_found", "conflict", "ai"],
    run: (ctx, { build, body }) => replacePlan(ctx, { build, body: body as { plan: DraftPlan } }),
  }),
  defineRoute({
    method: "POST", path: "ai/builds/:build/apply", permission: "workspace:write", workspaceFrom: "query", tag: "AI", operationId: "applyAiBuild",
    summary: "Apply a planned build", description: "Creates what the plan adds, through the same services as the dashboard, all or nothing on both engines (what was created is undone on failure). A new database counts against the plan like any create (402).",
    query: WorkspaceQueryForApply, status: 200, response: Database, errors: ["not_found", "conflict", "quota"],
    run: (ctx, { build }) => applyBuild(ctx, { build }),
  }),
  defineRoute({
    method: "GET", path: "ai/builds", permission: "account:read", tag: "AI", operationId: "listAiBuilds",
    summary: "Build history", description: "Your builds and your workspace's, newest first, with every step.",
    query: AiBuildListQuery, status: 200, response: z.array(AiBuild),
    run: (ctx, { query }) => listBuilds(ctx, { query }),
  }),
  defineRoute({
    method: "GET", path: "ai/builds/:build", permission: "account:read", tag: "AI", operationId: "getAiBuild",
    summary: "One build", description: "The build with its plan, steps, usage and outcome.",
    status: 200, response: AiBuild,
    run: (ctx, { build }) => getBuild(ctx, { build }),
  }),
  defineRoute({
    method: "GET", path: "ai/planner", permission: "account:read", tag: "AI", operationId: "getAiPlanner",
    summary: "Who plans builds", description: "Whether a model is configured (`AI_BASE_URL`) and its name; without one the built-in offline planner plans from the sentence's own words, for free.",
    status: 200, response: AiPlanner,
    run: (ctx) => getPlanner(ctx),
  }),
];
