// The build's failure with its record: apart from the agent, so the offline path never loads the AI SDK.
import { ApiError, type FieldError } from "../errors";

export type AgentStep = { tool: string; input: unknown; ok: boolean; error?: string };

export type TokenUsage = { input_tokens: number; output_tokens: number; total_tokens: number };

/** A 422 ai_plan_invalid carrying the steps and usage so far, for the build's record. */
export class PlanInvalidError extends ApiError {
  constructor(
    message: string,
    errors: FieldError[],
    readonly steps: AgentStep[],
    readonly usage: TokenUsage,
  ) {
    super("ai_plan_invalid", message, errors.length ? { errors } : {});
  }
}
