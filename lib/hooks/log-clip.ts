// Hook logs keep values small: a logged input, step result or error whose JSON is longer than its room is
// stored as the first characters of that JSON (a string) and marked `truncated`. The JSON is written with a
// budget, so a 1 MiB value is never serialised whole just to be cut.
import { LOG_STEPS_CHARS, LOG_VALUE_CHARS } from "./limits";
import type { StepResult } from "./hooks";
import { sizeOf } from "./value-size";

/** At most `max` characters of the value's JSON, and whether that is all of it. */
const jsonPrefix = (value: unknown, max: number): { text: string; complete: boolean } => {
  let text = "";
  const write = (v: unknown): boolean => {
    if (text.length > max) return false;
    if (typeof v === "string") text += JSON.stringify(v.length > max ? v.slice(0, max + 1) : v);
    else if (Array.isArray(v)) {
      text += "[";
      for (const [i, item] of v.entries()) {
        if (i) text += ",";
        if (!write(item)) return false;
      }
      text += "]";
    } else if (typeof v === "object" && v !== null && !(v instanceof Date)) {
      text += "{";
      let first = true;
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined) continue;
        text += `${first ? "" : ","}${JSON.stringify(k.slice(0, max + 1))}:`;
        first = false;
        if (!write(item)) return false;
      }
      text += "}";
    } else text += typeof v === "bigint" ? String(v) : (JSON.stringify(v) ?? "null");
    return text.length <= max;
  };
  const complete = write(value) && text.length <= max;
  return { text: complete ? text : text.slice(0, max), complete };
};

/** Whether the value's JSON surely fits in `room`: an escaped character takes at most 6, an element's framing 8. */
const surelyFits = (value: unknown, room: number) => 6 * sizeOf(value) + 2 <= room;

/** A value for the log: itself when its JSON fits in `room`, else its JSON's first `room` characters. */
const clip = (value: unknown, room: number) => {
  if (surelyFits(value, room)) {
    const text = JSON.stringify(value) ?? "null";
    return { value, text, chars: text.length, truncated: false };
  }
  const { text, complete } = jsonPrefix(value, room);
  return { value: complete ? value : text, text: complete ? text : JSON.stringify(text), chars: text.length, truncated: !complete };
};

/** The input's JSON for the log: the row, or (over 2 KB) a string holding the start of its JSON. */
export const clipInput = (input: Record<string, unknown>) => clip(input, LOG_VALUE_CHARS).text;

export type LoggedStep = StepResult & { truncated?: true };

/** Each result or error at most 2 KB, all of them together at most LOG_STEPS_CHARS (later ones get less). */
export const clipSteps = (steps: StepResult[]): LoggedStep[] => {
  let left = LOG_STEPS_CHARS;
  return steps.map((step) => {
    const field = "error" in step && step.error !== undefined ? "error" : "result";
    const { value, chars, truncated } = clip(step[field], Math.min(LOG_VALUE_CHARS, left));
    left -= chars;
    return { index: step.index, [field]: value, ...(truncated ? { truncated: true as const } : {}) };
  });
};
