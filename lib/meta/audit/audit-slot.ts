// The audit entry a management request will write: made by the handler before the service runs, filled in by
// the service where it knows more (the database it created, the value before), written once by the first
// metadata transaction that commits the change (commitMeta or changeSchema), so the two commit together.
import { redactText } from "../../ops/redact";

/** How the actor came: a dashboard session, a secret key, the billing webhook's signature, or a database's end user signing in. */
export type AuditVia = "session" | "key" | "signature" | "user";

export type AuditSlot = {
  action: string;
  via: AuditVia;
  actorId: number | null;
  /** Known without a read (a sign-in); else read from the actor's account as the entry is written. */
  actorEmail?: string;
  ip: string | null;
  /** The owner whose workspace this is in; null for install-wide changes only the operator sees. */
  workspaceId: number | null;
  databaseId: number | null;
  database: string | null;
  target: string;
  before?: unknown;
  after?: unknown;
  /** Set inside the transaction that wrote the entry; cleared again when that transaction rolls back. */
  written: boolean;
};

/** What a service may add to or correct in its request's entry. */
export type AuditNote = Partial<Pick<AuditSlot, "workspaceId" | "databaseId" | "database" | "target" | "before" | "after">>;

/** Adds what the service knows to its request's pending entry (nothing outside a management request). */
export const noteAudit = (ctx: { audit?: AuditSlot }, note: AuditNote) => {
  if (ctx.audit && !ctx.audit.written) Object.assign(ctx.audit, note);
};

// Never recorded: fields that hold a secret (key secrets, passwords and their hashes, webhook, JWT and provider
// client secrets, tokens, encrypted values). Matched by the whole name, so a setting that only names one
// (`password_column`, `token_ttl_seconds`) is kept; values that look like a secret are redacted wherever they are.
const SECRET_FIELD = /^(?:(?:new_|current_|old_)?password|password_hash|hash|secret|client_secret|(?:access_|refresh_|id_|reset_|verify_)?token|key|api_key|authorization|cookie|recovery_codes?)$|_(?:secret|token|password|hash|enc)$/i;

/** A copy of a value for the log: secret fields left out, secret-looking text redacted, depth bounded. */
export const auditValue = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return "[…]";
  if (Array.isArray(value)) return value.map((v) => auditValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_FIELD.test(k) || v === undefined) continue;
    out[k] = auditValue(v, depth + 1);
  }
  return out;
};
