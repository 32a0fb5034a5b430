// Every call to a model lives here. The agent edits a draft plan through tools (each validates its input like
// the management API and answers problems to the model, so it can correct itself) until it calls `finish` with
// a plan that passes validatePlan, or the step budget runs out. Models without tool calling get one request for
// the whole plan as JSON instead.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, RetryError, stepCountIs, tool } from "ai";
import { z } from "zod";
import type { Config } from "../config";
import { ApiError, type FieldError } from "../errors";
import { toFieldErrors } from "../contract/field-errors";
import type { DatabaseSchema } from "../schema/types";
import { DatabaseName } from "../contract/schemas/databases";
import { type DraftPlan, emptyPlan, type PlanColumn, parsePlannedTable, validatePlan } from "./plan";
import { type AgentStep, PlanInvalidError, type TokenUsage } from "./plan-invalid-error";

export { type AgentStep, PlanInvalidError, type TokenUsage } from "./plan-invalid-error";

export type AiConfig = NonNullable<Config["ai"]>;



export type AgentResult = { plan: DraftPlan; summary: string; steps: AgentStep[]; usage: TokenUsage };

const COLUMN_HELP =
  'A column is {"name", "type", "nullable"?, "unique"?, "default"?, "length"?, "precision"?, "scale"?, "options"?, "references"?}. ' +
  "Types: varchar, text, int, bigint, decimal, float, boolean, date, datetime, json, password, dropdown (needs options), reference (needs references: an earlier table), file (uploaded files: photo, image, attachment, document; options accept e.g. [\"image/*\"], multiple: true for several; seed rows leave file columns out). " +
  "Names are lowercase a-z, 0-9 and _. id, created_at and updated_at are automatic: never add them.";

const SYSTEM = [
  "You design a MySQL database for the user's app by calling tools that edit a draft plan.",
  "Add the tables in dependency order (a referenced table first), with realistic columns, dropdown options where a column has a fixed set of values, references between tables, one useful join, and 3 to 5 seed rows per table (reference values are the ids 1..n of the referenced table's seed rows).",
  COLUMN_HELP,
  "When a tool answers with problems, fix them and call it again. Call finish when the plan is complete.",
].join("\n");

const describeExisting = (existing?: DatabaseSchema) =>
  existing
    ? `\nYou are extending the database "${existing.name}", which already has these tables (reference and join them, do not add them again):\n` +
      [...existing.tables.values()].map((t) => `- ${t.name}(${t.columns.map((c) => `${c.name} ${c.type}`).join(", ")})`).join("\n")
    : "";

const problems = (errors: FieldError[]) => ({ ok: false as const, problems: errors.map((e) => `${e.field}: ${e.message}`) });

/** The tools that edit the draft; each answers `{ok: true}` or the problems to fix. */
const draftTools = (plan: DraftPlan, existing: DatabaseSchema | undefined, state: { finished: boolean; summary: string }) => {
  const tableExists = (name: string, before = plan.tables.length) =>
    !!existing?.tables.has(name) || plan.tables.slice(0, before).some((t) => t.name === name);
  const planned = (name: string) => plan.tables.find((t) => t.name === name);
  const checkTable = (name: string, columns: PlanColumn[], index: number) => parsePlannedTable({ name, columns }, (n) => tableExists(n, index)).errors;
  /** Problems the plan would have with one more join or seed rows, in that part only. */
  const problemsIn = (draft: DraftPlan, prefix: string) => validatePlan(draft, existing).errors.filter((e) => e.field.startsWith(prefix));
  return {
    set_database_name: tool({
      description: "Names the new database (free text, 1 to 80 characters).",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        const parsed = DatabaseName.safeParse(name, { reportInput: true });
        if (!parsed.success) return problems(toFieldErrors(parsed.error.issues, ["name"]));
        plan.name = name.trim();
        return { ok: true };
      },
    }),
    add_table: tool({
      description: `Adds a table with its columns. ${COLUMN_HELP}`,
      inputSchema: z.object({ name: z.string(), columns: z.array(z.record(z.string(), z.unknown())) }),
      execute: async ({ name, columns }) => {
        if (tableExists(name)) return problems([{ field: "name", code: "duplicate", message: `table "${name}" exists already` }]);
        const errors = checkTable(name, columns, plan.tables.length);
        if (errors.length) return problems(errors);
        plan.tables.push({ name, columns });
        return { ok: true };
      },
    }),
    add_column: tool({
      description: `Adds one column to a planned table (a dropdown with its options, a reference to an earlier table, ...). ${COLUMN_HELP}`,
      inputSchema: z.object({ table: z.string(), column: z.record(z.string(), z.unknown()) }),
      execute: async ({ table, column }) => {
        const target = planned(table);
        if (!target) return problems([{ field: "table", code: "unknown_table", message: `no planned table "${table}"` }]);
        const columns = [...target.columns, column];
        const errors = checkTable(table, columns, plan.tables.indexOf(target));
        if (errors.length) return problems(errors);
        target.columns = columns;
        return { ok: true };
      },
    }),
    add_join: tool({
      description:
        'Adds a read-only join path: {"name", "base": table, "joins": [{"table", "on": [["base.col", "table.col"]]}], "columns": [{"column": "table.col", "as": "output_name"}]}.',
      inputSchema: z.object({
        name: z.string(),
        base: z.string(),
        joins: z.array(z.object({ table: z.string(), on: z.array(z.tuple([z.string(), z.string()])) })),
        columns: z.array(z.object({ column: z.string(), as: z.string() })),
      }),
      execute: async (join) => {
        const errors = problemsIn({ ...plan, joins: [...plan.joins, join], seed: {} }, "joins");
        if (errors.length) return problems(errors);
        plan.joins.push(join);
        return { ok: true };
      },
    }),
    add_seed_rows: tool({
      description: "Adds example rows to a planned table (values by column name; reference values are seed ids 1..n of the referenced table).",
      inputSchema: z.object({ table: z.string(), rows: z.array(z.record(z.string(), z.unknown())) }),
      execute: async ({ table, rows }) => {
        const seed = { ...plan.seed, [table]: [...(plan.seed[table] ?? []), ...rows] };
        const errors = problemsIn({ ...plan, joins: [], seed }, "seed");
        if (errors.length) return problems(errors);
        plan.seed = seed;
        return { ok: true };
      },
    }),
    finish: tool({
      description: "Ends the build with a one-sentence summary, once the plan is complete.",
      inputSchema: z.object({ summary: z.string() }),
      execute: async ({ summary }) => {
        const { errors } = validatePlan(plan, existing);
        if (errors.length) return problems(errors);
        state.finished = true;
        state.summary = summary;
        return { ok: true };
      },
    }),
  };
};

/** A model that is down, refuses the key or answers garbage is the same 502 to the caller. */
const unavailable = (err: unknown) => {
  const cause = err instanceof RetryError ? err.lastError : err;
  const detail = cause instanceof APICallError ? `${cause.statusCode ?? "no answer"}: ${cause.message}` : (cause as Error)?.message;
  return new ApiError("ai_unavailable", `The AI model could not be reached (${detail ?? "unknown error"}).`);
};

const modelOf = (config: AiConfig) => createOpenAICompatible({ name: "tabula-ai", baseURL: config.baseUrl, apiKey: config.apiKey })(config.model);

const usageOf = (u: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): TokenUsage => ({
  input_tokens: u?.inputTokens ?? 0,
  output_tokens: u?.outputTokens ?? 0,
  total_tokens: u?.totalTokens ?? 0,
});

/** Models without tool calling (AI_TOOLS=off): one request for the whole plan as JSON. */
const planAsJson = async (config: AiConfig, prompt: string, existing?: DatabaseSchema): Promise<AgentResult> => {
  const result = await generateText({
    model: modelOf(config),
    maxRetries: 1,
    system: `${SYSTEM.split("\n").slice(0, 3).join("\n")}\nAnswer with one JSON object only: {"name", "summary", "tables": [{"name", "columns": [...]}], "joins": [...], "seed": {"<table>": [rows]}}.`,
    prompt: prompt + describeExisting(existing),
  }).catch((err) => {
    throw unavailable(err);
  });
  const text = result.text.replace(/^```(?:json)?\s*|\s*```$/g, "").trim();
  let parsed: Partial<DraftPlan> & { summary?: string };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PlanInvalidError("The model's answer was not a JSON plan.", [], [], usageOf(result.totalUsage));
  }
  const plan: DraftPlan = { ...emptyPlan(existing?.name ?? ""), name: parsed.name ?? existing?.name ?? "", tables: parsed.tables ?? [], joins: parsed.joins ?? [], seed: parsed.seed ?? {} };
  return { plan, summary: parsed.summary ?? "", steps: [{ tool: "json_plan", input: parsed, ok: true }], usage: usageOf(result.totalUsage) };
};

export type RunAgentInput = { prompt: string; existing?: DatabaseSchema; onStep?: (steps: AgentStep[]) => void | Promise<void> };

/**
 * Runs the agent until `finish` accepts the plan or `config.maxSteps` model calls are spent (422
 * ai_plan_invalid with the plan's problems); an unreachable model is 502 ai_unavailable.
 */
export const runAgent = async (config: AiConfig, { prompt, existing, onStep }: RunAgentInput): Promise<AgentResult> => {
  if (!config.tools) return planAsJson(config, prompt, existing);
  const plan = emptyPlan(existing?.name ?? "");
  const state = { finished: false, summary: "" };
  const steps: AgentStep[] = [];
  const result = await generateText({
    model: modelOf(config),
    maxRetries: 1,
    system: SYSTEM,
    prompt: prompt + describeExisting(existing),
    tools: draftTools(plan, existing, state),
    stopWhen: [stepCountIs(config.maxSteps), () => state.finished],
    onStepFinish: async (step) => {
      for (const part of step.content) {
        if (part.type === "tool-result") {
          const output = part.output as { ok?: boolean; problems?: string[] };
          steps.push({ tool: part.toolName, input: part.input, ok: output?.ok === true, ...(output?.ok ? {} : { error: output?.problems?.join("; ") }) });
        } else if (part.type === "tool-error") {
          steps.push({ tool: part.toolName, input: part.input, ok: false, error: String((part.error as Error)?.message ?? part.error) });
        }
      }
      await onStep?.(steps);
    },
  }).catch((err) => {
    throw err instanceof ApiError ? err : unavailable(err);
  });
  if (!state.finished) {
    const { errors } = validatePlan(plan, existing);
    const why = result.steps.length >= config.maxSteps ? `within its budget of ${config.maxSteps} steps` : `(it stopped after ${result.steps.length} of at most ${config.maxSteps} steps)`;
    throw new PlanInvalidError(`The model did not finish a valid plan ${why}.`, errors, steps, usageOf(result.totalUsage));
  }
  return { plan, summary: state.summary, steps, usage: usageOf(result.totalUsage) };
};
