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

/**
 * The first limit a JSON value breaks: depth, a non-finite number (JSON.parse reads 1e999 as Infinity), a lone
 * surrogate in a string or key. Walks with an explicit stack, so a body nested 100,000 deep cannot overflow it.
 */
export const jsonValueProblem = (value: unknown): ValueProblem | undefined => {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "number" && !Number.isFinite(v)) return { code: "not_finite", message: "holds a number too large to store (not finite)" };
    if (typeof v === "string" && hasLoneSurrogate(v)) return LONE_SURROGATE_PROBLEM;
    if (typeof v !== "object" || v === null) continue;
    // A container always counts the level of the value inside it, also when empty (MariaDB refuses 32 nested []).
    if (depth + 1 > JSON_MAX_DEPTH) return { code: "too_deep", message: `is nested deeper than ${JSON_MAX_DEPTH} levels` };
    for (const [key, child] of Object.entries(v)) {
      if (!Array.isArray(v) && hasLoneSurrogate(key)) return LONE_SURROGATE_PROBLEM;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
};
