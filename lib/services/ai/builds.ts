// AI builds: one prompt → a plan (the agent, or the offline planner), kept with its steps, usage and cost;
// applied on request. One agentic call is one AI call of the month's allowance or one held credit: the route's
// quota reserves it before the model is called, a plan charges it, a failure releases it.
import { commitRows } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import type { Selectable } from "kysely";
import type { AiBuildsTable } from "../../db/meta-schema";
import { ApiError, conflict, invalidField, notFound } from "../../errors";
import { holdCreditsIn, settleHold } from "../../credits/ledger";
import { type Ctx, nowIso, transact } from "../../meta/context";
import { getDatabase } from "../databases/get-database";
import { databaseCtx } from "../databases/database-ctx";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { loadSchema } from "../../meta/load-schema";
import type { DatabaseSchema } from "../../schema/types";
import { type AgentStep, PlanInvalidError, type TokenUsage } from "../../ai/plan-invalid-error";
import { applyPlan } from "../../ai/apply-plan";
import { type DraftPlan, validatePlan } from "../../ai/plan";
import { workspaceRole } from "../../teams/roles";

type BuildRow = Selectable<AiBuildsTable>;

const parse = <T>(text: string | null): T | null => (text ? (JSON.parse(text) as T) : null);

const buildView = async (ctx: Ctx, row: BuildRow) => {
  const database = row.database_id
    ? await ctx.app.engine.meta.selectFrom("databases").select("instance").where("id", "=", row.database_id).executeTakeFirst()
    : undefined;
  return {
    id: row.id,
    status: row.status as "running" | "planned" | "applied" | "failed",
    kind: row.kind as "schema" | "join",
    offline: row.offline === 1,
    model: row.model,
    prompt: row.prompt,
    summary: row.summary ?? "",
    plan: parse<DraftPlan>(row.plan),
    steps: parse<AgentStep[]>(row.steps) ?? [],
    usage: parse<TokenUsage>(row.usage),
    credit: (row.credit === "held" ? "none" : row.credit) as "charged" | "released" | "none",
    database: database?.instance ?? null,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
};

export type AiBuild = Awaited<ReturnType<typeof buildView>>;

/** The planned tables whose references reach only planned, seeded tables (so seed ids 1..n hold), to a fixpoint. */
const selfContained = (tables: DraftPlan["tables"]) => {
  const seeded = new Set(tables.map((t) => t.name));
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of tables) {
      if (seeded.has(t.name) && t.columns.some((c) => c.type === "reference" && !seeded.has(String(c.references)))) {
        seeded.delete(t.name);
        changed = true;
      }
    }
  }
  return seeded;
};

/** Offline: the built-in planner; extending, it adds only the planned tables the database lacks. */
const planWithoutModel = async (prompt: string, existing?: DatabaseSchema) => {
  // The offline planners (compromise, a language tagger) and the agent (the AI SDK) load on first use, not at start.
  const { planOffline } = await import("../../ai/offline-planner");
  const offline = planOffline(prompt);
  if ("error" in offline) throw new ApiError("ai_plan_invalid", offline.error);
  if (!existing) return { plan: offline.plan, summary: offline.summary };
  const tables = offline.plan.tables.filter((t) => !existing.tables.has(t.name) && !existing.joins?.has(t.name));
  const kept = new Set(tables.map((t) => t.name));
  const plan: DraftPlan = {
    name: existing.name,
    tables,
    joins: offline.plan.joins.filter((j) => kept.has(j.base) && j.joins.every((x) => kept.has(x.table)) && !existing.tables.has(j.name) && !existing.joins?.has(j.name)),
    // Seed only tables whose references stay inside the plan: ids of the database's own rows are unknown here.
    seed: Object.fromEntries(Object.entries(offline.plan.seed).filter(([t]) => selfContained(tables).has(t))),
  };
  if (tables.length === 0) throw new ApiError("ai_plan_invalid", `"${existing.name}" already has every table the offline planner would add for this prompt.`);
  return { plan, summary: `${offline.summary} (only what "${existing.name}" lacks)` };
};

const update = (ctx: Ctx, id: number, values: Partial<Omit<BuildRow, "id">>) =>
  (ctx.trx ?? ctx.app.engine.meta).updateTable("ai_builds").set({ ...values, updated_at: nowIso() }).where("id", "=", id).execute();

export type CreateBuildInput = { body: { prompt: string; database?: string; apply?: boolean; kind?: "schema" | "join" } };

/** The Joins page's AI mode: one join over the existing tables, nothing else. */
const JOIN_ONLY = "\nPropose exactly one join over the existing tables for this request (add_join, then finish). Add no tables and no seed rows.";

const planJoinWithoutModel = async (prompt: string, existing: DatabaseSchema) => {
  const { proposeJoinOffline } = await import("../../ai/offline-join");
  const proposal = proposeJoinOffline(existing, prompt);
  if ("error" in proposal) throw new ApiError("ai_plan_invalid", proposal.error);
  return { plan: { name: existing.name, tables: [], joins: [proposal.join], seed: {} } as DraftPlan, summary: proposal.summary };
};

/**
 * POST /ai/builds: reserves the call (allowance or a held credit; offline is free), plans, and with `apply`
 * applies. The build is kept whatever happens; a failure releases what was reserved and answers 422 or 502.
 */
export const createBuild = async (ctx: Ctx, { body }: CreateBuildInput) => {
  const { app, actor } = ctx;
  const ownerId = ctx.workspaceId ?? actor.accountId;
  const existing = body.database ? (await getDatabaseOrThrow(ctx, body.database)).schema : undefined;
  const joinOnly = body.kind === "join";
  if (joinOnly && !existing) throw invalidField("database", "required", "a join is proposed for an existing database: name it in `database`");
  if (existing && existing.ownerId !== ownerId) throw notFound(`Database "${body.database}" was not found in this workspace.`);
  const ai = app.config.ai;
  const at = nowIso();
  const { id, holdId } = await transact(ctx, async (trx) => {
    const outcome = ctx.meter?.outcome ?? "free";
    const hold = outcome === "credit" ? await holdCreditsIn(trx, { accountId: ownerId, kind: "ai_calls", amount: 1, note: "AI build", actor: `account:${actor.accountId}` }) : undefined;
    const row = await trx
      .insertInto("ai_builds")
      .values({
        owner_id: ownerId,
        created_by: actor.accountId,
        database_id: existing?.id ?? null,
        prompt: body.prompt,
        kind: joinOnly ? "join" : "schema",
        model: ai?.model ?? "offline",
        offline: ai ? 0 : 1,
        status: "running",
        summary: null,
        plan: null,
        steps: "[]",
        usage: null,
        charge: outcome === "free" ? "none" : outcome,
        credit: outcome === "free" ? "none" : "held",
        hold_id: hold?.id ?? null,
        error: null,
        created_at: at,
        updated_at: at,
      })
      .executeTakeFirstOrThrow();
    return { id: Number(row.insertId), holdId: hold?.id };
  });
  const actorName = `account:${actor.accountId}`;
  const paid = !!ai;
  try {
    const onStep = (steps: AgentStep[]) => update(ctx, id, { steps: JSON.stringify(steps) }).then(() => undefined);
    const result = ai
      ? await (await import("../../ai/agent")).runAgent(ai, { prompt: body.prompt + (joinOnly ? JOIN_ONLY : ""), existing, onStep })
      : { ...(await (joinOnly ? planJoinWithoutModel(body.prompt, existing!) : planWithoutModel(body.prompt, existing))), steps: [] as AgentStep[], usage: null };
    if (joinOnly) result.plan = { ...result.plan, tables: [], seed: {} };
    const { errors } = validatePlan(result.plan, existing);
    if (errors.length) throw new PlanInvalidError("The plan has problems.", errors, result.steps, result.usage ?? { input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    if (holdId) await settleHold(app, holdId, "spend", actorName);
    // The build counts as made once planned: its audit entry commits with that (a failed one answers 4xx and records none).
    await commitRows(ctx, (trx) => update({ ...ctx, trx }, id, {
      status: "planned",
      plan: JSON.stringify(result.plan),
      summary: result.summary,
      steps: JSON.stringify(result.steps),
      usage: result.usage ? JSON.stringify(result.usage) : null,
      credit: paid ? "charged" : "none",
    }));
  } catch (err) {
    if (holdId) await settleHold(app, holdId, "release", actorName);
    const steps = err instanceof PlanInvalidError ? err.steps : undefined;
    await update(ctx, id, {
      status: "failed",
      error: err instanceof ApiError ? err.message : "The build failed.",
      credit: paid ? "released" : "none",
      ...(steps ? { steps: JSON.stringify(steps), usage: JSON.stringify(err instanceof PlanInvalidError ? err.usage : null) } : {}),
    });
    throw err;
  }
  if (body.apply) await applyBuild(ctx, { build: id });
  return readBuild(ctx, id);
};

const readBuild = async (ctx: Ctx, id: number) =>
  buildView(ctx, await ctx.app.engine.meta.selectFrom("ai_builds").selectAll().where("id", "=", id).executeTakeFirstOrThrow());

/** A build stays its creator's only while the creator is still in the workspace it was made in. */
const canSeeBuild = async (ctx: Ctx, row: BuildRow) =>
  row.owner_id === ctx.actor.accountId || (row.created_by === ctx.actor.accountId && (await workspaceRole(ctx.app.engine.meta, row.owner_id, ctx.actor.accountId)) !== undefined);

const findBuild = async (ctx: Ctx, id: number, ownerId?: number) => {
  const row = await ctx.app.engine.meta.selectFrom("ai_builds").selectAll().where("id", "=", id).executeTakeFirst();
  const mine = row && (ownerId === undefined ? await canSeeBuild(ctx, row) : row.owner_id === ownerId);
  if (!row || !mine) throw notFound(`AI build ${id} was not found.`);
  return row;
};

/** POST /ai/builds/{id}/apply: applies a planned build (checked again against the schema as it is now). */
export const applyBuild = async (ctx: Ctx, { build }: { build: number }) => {
  const row = await findBuild(ctx, build, ctx.workspaceId ?? ctx.actor.accountId);
  if (row.status !== "planned") throw conflict(`AI build ${build} is ${row.status}; only a planned build can be applied.`);
  const existing = row.database_id ? await loadSchemaById(ctx, row.database_id) : undefined;
  if (row.database_id && !existing) throw conflict(`The database AI build ${build} extends no longer exists.`);
  const plan = parse<DraftPlan>(row.plan)!;
  const { errors } = validatePlan(plan, existing);
  if (errors.length) throw new ApiError("ai_plan_invalid", "The plan no longer fits the database.", { errors });
  // One entry for the whole build, written with its status once every step went through (a step undone records none).
  const instance = await applyPlan({ ...ctx, audit: undefined }, plan, existing);
  const database = (await loadSchema(ctx.app, instance))!;
  noteAudit(ctx, { databaseId: database.id, database: instance });
  await commitRows(ctx, (trx) => update({ ...ctx, trx }, row.id, { status: "applied", database_id: database.id }));
  return getDatabase(await databaseCtx(ctx, instance), { instance });
};

/**
 * PUT /ai/builds/{id}/plan: the builder's edits of a planned build (names, types, options, columns and tables
 * removed or added), checked as the planner's own plan is; nothing is created until Apply.
 */
export const replacePlan = async (ctx: Ctx, { build, body }: { build: number; body: { plan: DraftPlan } }) => {
  const row = await findBuild(ctx, build, ctx.workspaceId ?? ctx.actor.accountId);
  if (row.status !== "planned") throw conflict(`AI build ${build} is ${row.status}; only a planned build can be edited.`);
  const existing = row.database_id ? await loadSchemaById(ctx, row.database_id) : undefined;
  if (row.database_id && !existing) throw conflict(`The database AI build ${build} extends no longer exists.`);
  const { errors } = validatePlan(body.plan, existing);
  if (errors.length) throw new ApiError("ai_plan_invalid", "The edited plan is not valid; nothing was saved.", { errors });
  const tables = body.plan.tables.map((t) => t.name).join(", ");
  await commitRows(ctx, (trx) =>
    trx.updateTable("ai_builds").set({ plan: JSON.stringify(body.plan), summary: `Edited plan for "${body.plan.name}": ${body.plan.tables.length} tables (${tables}).`, updated_at: nowIso() }).where("id", "=", row.id).execute(),
  );
  return buildView(ctx, await findBuild(ctx, build, ctx.workspaceId ?? ctx.actor.accountId));
};

const loadSchemaById = async (ctx: Ctx, databaseId: number) => {
  const row = await ctx.app.engine.meta.selectFrom("databases").select("instance").where("id", "=", databaseId).executeTakeFirst();
  return row ? loadSchema(ctx.app, row.instance) : undefined;
};

export type ListBuildsInput = { query?: { status?: string } };

/** GET /ai/builds: the caller's builds and those of its workspace, newest first, with every step; none from a workspace it left. */
export const listBuilds = async (ctx: Ctx, { query = {} }: ListBuildsInput) => {
  const me = ctx.actor.accountId;
  let q = ctx.app.engine.meta
    .selectFrom("ai_builds")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb("owner_id", "=", me),
        eb.and([
          eb("created_by", "=", me),
          eb.exists(eb.selectFrom("members").select("members.account_id").whereRef("members.owner_id", "=", "ai_builds.owner_id").where("members.account_id", "=", me)),
        ]),
      ]),
    );
  if (query.status) q = q.where("status", "=", query.status);
  const rows = await q.orderBy("id", "desc").limit(100).execute();
  return Promise.all(rows.map((r) => buildView(ctx, r)));
};

/** GET /ai/builds/{id}. */
export const getBuild = async (ctx: Ctx, { build }: { build: number }) => buildView(ctx, await findBuild(ctx, build));
