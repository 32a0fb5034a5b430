import { z } from "zod";
import { component, Timestamp } from "./common";

export const HookStep = component(
  "HookStep",
  z
    .union([
      z.strictObject({ set: z.string().meta({ description: "The column to set." }), expr: z.string().meta({ description: "CEL: its value." }) }),
      z.strictObject({ assert: z.string().meta({ description: "CEL: must be true, else 422 with `message`." }), message: z.string() }),
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
