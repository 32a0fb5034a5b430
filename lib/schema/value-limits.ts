// Limits on values that are the same on both engines (docs/api.md "Limits"): MariaDB refuses JSON nested past
// 32 levels and cannot store a non-finite number; neither engine can store a lone UTF-16 surrogate as text.

/** Levels of JSON nesting, counted as MySQL's JSON_DEPTH counts them with a value inside (`[[1]]` is 3). */
export const JSON_MAX_DEPTH = 32;
/** Bytes of one json value, as JSON text. */
export const JSON_MAX_BYTES = 1_048_576;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (s: string) => LONE_SURROGATE.test(s);

export type ValueProblem = { code: string; message: string };

export const LONE_SURROGATE_PROBLEM: ValueProblem = {
  code: "invalid_text",
  message: "contains a lone UTF-16 surrogate (half of a pair), which no engine can store as text",
};

/** JSON.stringify writes a lone surrogate as a `\udXXX` escape (a pair stays as it is); one after an odd run of backslashes is one. */
const ESCAPED_LONE_SURROGATE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/;

/** Whether a JSON.stringify result holds a lone surrogate (one scan of the text, instead of a test per string). */
export const jsonTextHasLoneSurrogate = (text: string) => ESCAPED_LONE_SURROGATE.test(text);

/**
 * The first limit a JSON value's shape breaks: depth, or a non-finite number (JSON.parse reads 1e999 as Infinity).
 * Walks with an explicit stack, so a body nested 100,000 deep cannot overflow it (JSON.stringify would: check
 * this first), and allocates nothing per value.
 */
export const jsonShapeProblem = (value: unknown): ValueProblem | undefined => {
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop();
    const depth = depths.pop()!;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return { code: "not_finite", message: "holds a number too large to store (not finite)" };
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    // A container always counts the level of the value inside it, also when empty (MariaDB refuses 32 nested []).
    if (depth + 1 > JSON_MAX_DEPTH) return { code: "too_deep", message: `is nested deeper than ${JSON_MAX_DEPTH} levels` };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === "object" || typeof v[i] === "number") stack.push(v[i]), depths.push(depth + 1);
      continue;
    }
    for (const key in v) {
      const child = (v as Record<string, unknown>)[key];
      if (typeof child === "object" || typeof child === "number") stack.push(child), depths.push(depth + 1);
    }
  }
  return undefined;
};

/** The first limit a JSON value breaks: its shape's, or a lone surrogate in a string or key. */
export const jsonValueProblem = (value: unknown): ValueProblem | undefined => {
  const problem = jsonShapeProblem(value);
  if (problem) return problem;
  const text = JSON.stringify(value);
  return typeof text === "string" && jsonTextHasLoneSurrogate(text) ? LONE_SURROGATE_PROBLEM : undefined;
};
