import { ApiError } from "../errors";
import { normaliseEmail } from "./verify-credentials";

/** The dashboard's sign-in as read once: what the limiter counts is what the password check sees. */
export type SignInForm = { email: string; password: string };

const repeated = (field: string) =>
  new ApiError("bad_request", `The sign-in field "${field}" is given more than once; send each field once.`, {
    errors: [{ field, code: "repeated", message: `"${field}" is given more than once.` }],
  });

/** The keys of a JSON text's outermost object, repeats kept (JSON.parse keeps only the last). Valid JSON only. */
const outerKeys = (text: string): string[] => {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1, end + 64))) keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      i = end;
    }
  }
  return keys;
};

const firstRepeat = (keys: Iterable<string>) => {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
};

const fieldsOf = (contentType: string, text: string): Record<string, unknown> => {
  // The same choice of reader, in the same order, as next-auth's own (next-auth/next/utils getBody).
  if (contentType.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return {};
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    const again = firstRepeat(outerKeys(text));
    if (again !== undefined) throw repeated(again);
    return parsed as Record<string, unknown>;
  }
  if (contentType.includes("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(text);
    const again = firstRepeat(form.keys());
    if (again !== undefined) throw repeated(again);
    return Object.fromEntries(form);
  }
  return {};
};

/**
 * Reads a credentials sign-in's body (form-encoded or JSON) once, refusing a repeated field with a 400, so no
 * two readers can pick different values of it. The email comes back normalised as the password check reads it.
 */
export const readSignInForm = async (request: Request): Promise<SignInForm> => {
  const fields = fieldsOf(request.headers.get("content-type") ?? "", await request.clone().text());
  return { email: normaliseEmail(fields.email), password: typeof fields.password === "string" ? fields.password : "" };
};
