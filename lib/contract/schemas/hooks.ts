import { z } from "zod";
import { component, rule, Timestamp } from "./common";

/** Longest CEL expression a step may hold (lib/hooks/cel.ts keeps its evaluation cheap on top of this). */
const MAX_EXPRESSION = 2000;
const MAX_HOOK_MESSAGE = 500;

const Expression = (description: string) =>
  z
    .string()
    .check(rule((v: string) => (v.length > MAX_EXPRESSION ? { code: "invalid_expression", message: `must be at most ${MAX_EXPRESSION} characters` } : undefined)))
    .meta({ maxLength: MAX_EXPRESSION, description });

const Message = z
  .string()
  .check(rule((v: string) => (!v.trim() || v.length > MAX_HOOK_MESSAGE ? { code: "invalid_message", message: `must be a sentence of 1 to ${MAX_HOOK_MESSAGE} characters` } : undefined)))
  .meta({ minLength: 1, maxLength: MAX_HOOK_MESSAGE, description: "The 422's message when the assert is false." });

export const HookStep = component(
  "HookStep",
  z
    .union([
      z.strictObject({ set: z.string().meta({ description: "The column to set." }), expr: Expression("CEL: its value.") }),
      z.strictObject({ assert: Expression("CEL: must be true, else 422 with `message`."), message: Message }),
    ])
    .meta({ description: "A `set` step or an `assert` step. CEL variables: `new`, `old`, `auth` ({kind, id}), `now`." }),
);

const Steps = z.array(HookStep).max(20);

export const HooksInput = component(
  "HooksInput",
  z
    .strictObject({ insert: Steps.optional(), update: Steps.optional(), delete: Steps.optional() })
    .meta({
      example: {
        insert: [
          { set: "total", expr: "new.price * double(new.quantity)" },
          { assert: "new.quantity > 0", message: "quantity must be positive" },
        ],
      },
    }),
);

export const Hooks = component("Hooks", z.object({ insert: Steps, update: Steps, delete: Steps }));

const StepOutcome = z.object({ index: z.int(), result: z.unknown().optional(), error: z.string().optional() });

export const HookTry = component(
  "HookTry",
  z
    .strictObject({
      action: z.enum(["insert", "update", "delete"]),
      row: z.record(z.string(), z.unknown()).meta({ description: "The sample row (`new`; for update the changes merged onto `old`)." }),
      old: z.record(z.string(), z.unknown()).optional(),
    })
    .meta({ example: { action: "insert", row: { price: 2.5, quantity: 3 } } }),
);

export const HookTryResult = component(
  "HookTryResult",
  z.object({
    status: z.enum(["ok", "rejected", "failed"]),
    row: z.record(z.string(), z.unknown()).meta({ description: "The row after the set steps." }),
    steps: z.array(StepOutcome),
    duration_ms: z.number(),
    message: z.string().optional(),
  }),
);

export const HookLog = component(
  "HookLog",
  z.object({
    id: z.int(),
    table: z.string(),
    action: z.enum(["insert", "update", "delete"]),
    status: z.enum(["ok", "rejected", "failed"]),
    duration_ms: z.number(),
    input: z.record(z.string(), z.unknown()).meta({ description: "The incoming row (passwords redacted)." }),
    steps: z.array(StepOutcome),
    created_at: Timestamp,
  }),
);

export const HookLogQuery = z.object({
  table: z.string().optional(),
  status: z.enum(["ok", "rejected", "failed"]).optional(),
  _limit: z.coerce.number().int().min(1).max(500).optional().meta({ default: 50 }),
});

export type HookStep = z.output<typeof HookStep>;
export type Hooks = z.output<typeof Hooks>;
export type HooksInput = z.input<typeof HooksInput>;
export type HookTryResult = z.output<typeof HookTryResult>;
export type HookLog = z.output<typeof HookLog>;
