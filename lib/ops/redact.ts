// Secrets never reach a log line: every string the logger is handed (message, fields, errors) passes here.
const PATTERNS: [RegExp, string][] = [
  // JWTs (a user's token, a session cookie signed but not encrypted, an impersonation token).
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, "[redacted-jwt]"],
  // Secret keys, webhook secrets, invite tokens: the prefix stays so a reader knows what was there.
  [/\b(sk|whsec|inv)_[\w-]{6,}/g, "$1_[redacted]"],
  // Links whose path is the secret: invites, password resets.
  [/(\/(?:invite|invites\/accept|reset|reset-password)\/)[^/?#\s"]+/gi, "$1[redacted]"],
  // Query values that are credentials (EventSource's access_token, reset links' token).
  [/([?&;](?:access_token|token|api_key|apikey|key|secret|password|invite|reset_token|code)=)[^&#\s"]*/gi, "$1[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s",]+/gi, "$1 [redacted]"],
];

const SECRET_FIELD = /^(password|\w+_password|secret|\w+_secret|token|\w+_token|authorization|cookie|set-cookie|api_key|x-api-key)$/i;

// Every pattern above needs one of these: most strings (request paths, ids, messages) skip the five replaces.
const MAYBE_SECRET = /eyJ|sk_|whsec_|inv_|\/invite|\/reset|[?&;]|bearer|basic/i;

export const redactText = (text: string) => (MAYBE_SECRET.test(text) ? PATTERNS.reduce((out, [re, to]) => out.replace(re, to), text) : text);

/** A copy of a log argument with every secret replaced; an Error becomes its redacted type, message and stack. */
export const redactValue = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object" || depth > 6) return value;
  if (value instanceof Error) {
    const cause = (value as { cause?: unknown }).cause;
    return { type: value.name, message: redactText(value.message), stack: value.stack && redactText(value.stack), ...(cause ? { cause: redactValue(cause, depth + 1) } : {}) };
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    out[k] = SECRET_FIELD.test(k) && v != null ? "[redacted]" : redactValue(v, depth + 1);
  }
  return out;
};
