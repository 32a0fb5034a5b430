import { z } from "zod";
import { component, Timestamp, WorkspaceField, WorkspaceParam } from "./common";

export const AiBuildCreate = component(
  "AiBuildCreate",
  z
    .strictObject({
      prompt: z.string().min(3).max(2000).meta({ description: "What the app is about, in one or a few sentences." }),
      database: z.string().optional().meta({ description: "An instance to extend (only additions are planned); omitted: a new database." }),
      apply: z.boolean().optional().meta({ default: false, description: "Plan and apply in one call." }),
      kind: z.enum(["schema", "join"]).optional().meta({ default: "schema", description: "`join`: propose one join over `database`'s tables (the Joins page's AI mode)." }),
      workspace: WorkspaceField("The owner's account id of the workspace to build in (editor or admin there); default your own."),
    })
    .meta({ example: { prompt: "A shop for handmade soap with products, customers and orders", apply: false } }),
);

const PlanColumn = z.record(z.string(), z.unknown()).meta({ description: "A column object as `POST .../columns` takes it." });

const AiPlan = component(
  "AiPlan",
  z.object({
    name: z.string(),
    tables: z.array(z.object({ name: z.string(), columns: z.array(PlanColumn) })),
    joins: z.array(z.record(z.string(), z.unknown())).meta({ description: "Join definitions in the structured form." }),
    seed: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).meta({ description: "Rows to insert, by table." }),
  }),
);

/** PUT /ai/builds/{id}/plan: a planned build's plan as the builder edited it. */
export const AiPlanEdit = component(
  "AiPlanEdit",
  z
    .object({ plan: AiPlan })
    .strict()
    .meta({ example: { plan: { name: "Shop", tables: [{ name: "products", columns: [{ name: "title", type: "varchar" }] }], joins: [], seed: {} } } }),
);

const Step = z.object({ tool: z.string(), input: z.unknown(), ok: z.boolean(), error: z.string().optional() });

export const AiBuild = component(
  "AiBuild",
  z
    .object({
      id: z.int(),
      status: z.enum(["running", "planned", "applied", "failed"]),
      kind: z.enum(["schema", "join"]).meta({ description: "`schema`: tables, joins and seed rows; `join`: one join proposal (the Joins page's AI mode)." }),
      offline: z.boolean().meta({ description: "Planned by the built-in offline planner (no model configured): costs nothing." }),
      model: z.string(),
      prompt: z.string(),
      summary: z.string(),
      plan: AiPlan.nullable(),
      steps: z.array(Step).meta({ description: "Every tool call of the agent, with its outcome." }),
      usage: z.object({ input_tokens: z.int(), output_tokens: z.int(), total_tokens: z.int() }).nullable(),
      credit: z.enum(["charged", "released", "none"]).meta({ description: "What the call cost: one allowance call or credit charged, released after a failure, or none (offline)." }),
      database: z.string().nullable().meta({ description: "The database it extends, or the one applying it created." }),
      error: z.string().nullable(),
      created_at: Timestamp,
      updated_at: Timestamp,
    })
    .meta({
      example: {
        id: 12,
        status: "planned",
        kind: "schema",
        offline: true,
        model: "offline",
        prompt: "A shop for handmade soap",
        summary: "A shop with products, customers and orders.",
        plan: { name: "Handmade soap shop", tables: [{ name: "products", columns: [{ name: "name", type: "varchar" }] }], joins: [], seed: {} },
        steps: [],
        usage: null,
        credit: "none",
        database: null,
        error: null,
        created_at: "2024-05-01T12:00:00.000Z",
        updated_at: "2024-05-01T12:00:01.000Z",
      },
    }),
);

export const AiBuildListQuery = z.object({
  status: z.enum(["running", "planned", "applied", "failed"]).optional().meta({ description: "Only builds in this state (`running`: to follow a build's steps while it works)." }),
});

export const WorkspaceQueryForApply = z.object({ workspace: WorkspaceParam("The workspace the build belongs to, when it is not yours.") });

export type AiBuild = z.output<typeof AiBuild>;
export type AiBuildCreate = z.input<typeof AiBuildCreate>;

export const AiPlanner = component(
  "AiPlanner",
  z
    .object({
      offline: z.boolean().meta({ description: "No model is configured: the built-in offline planner plans (free)." }),
      model: z.string().nullable().meta({ description: "The configured model (`AI_MODEL`), or null offline." }),
    })
    .meta({ example: { offline: true, model: null } }),
);
export type AiPlanner = z.output<typeof AiPlanner>;
