// The audit log's read contract: GET /api/v1/audit's filters and cursor, and the entry it answers with.
import { z } from "zod";
import { component, Timestamp, WorkspaceParam } from "./common";

export const AUDIT_PAGE_MAX = 200;

export const AuditQuery = z.object({
  workspace: WorkspaceParam("The owner's account id of the workspace to read (you are its owner or an admin); default your own, or every entry for the operator."),
  database: z.string().min(1).max(64).optional().meta({ description: "Only entries about this database (its instance name)." }),
  actor: z.string().min(1).max(255).optional().meta({ description: "Only entries by this account: its id or its email." }),
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]*)?$/, "an action such as column.create, or a prefix such as column.")
    .optional()
    .meta({ description: "Only this action (`column.create`), or every action of a kind with a trailing dot (`column.`)." }),
  _limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).optional().meta({ default: 50 }),
  _after: z.coerce.number().int().min(1).optional().meta({ description: "The cursor: the `id` of the last entry of the previous page; the next (older) entries follow." }),
});

export const AuditEntry = component(
  "AuditEntry",
  z
    .object({
      id: z.int(),
      at: Timestamp,
      actor: z.object({ id: z.int().nullable(), email: z.string().nullable() }).meta({ description: "Who acted (a failed sign-in: the email tried, and the account when it is one)." }),
      via: z.enum(["session", "key", "signature", "user"]).meta({ description: "A dashboard session, a secret key, the billing webhook's signature, or (`user_signin.*`) a database's end user signing in through the data API." }),
      ip: z.string().nullable(),
      action: z.string().meta({ description: "What happened, `<thing>.<verb>`: `database.create`, `column.update`, `key.revoke`, `member.remove`, `policy.update`, `signin.ok`, `signin.failed`…" }),
      database: z.string().optional().meta({ description: "The database's instance name, for changes inside one." }),
      target: z.string().meta({ description: "What was changed, named from the database down (`orders.price`), or an account's email." }),
      before: z.unknown().optional().meta({ description: "The value before the change, where the change replaces one (secrets are never recorded)." }),
      after: z.unknown().optional().meta({ description: "What was asked for (the request's body), or the value after; secrets are never recorded." }),
    })
    .meta({
      example: { id: 42, at: "2024-05-01T12:00:00.000Z", actor: { id: 2, email: "ana@example.com" }, via: "session", ip: "203.0.113.9", action: "column.create", database: "shop_x1y2z3", target: "orders.price", after: { name: "price", type: "decimal" } },
    }),
);

export type AuditQuery = z.output<typeof AuditQuery>;
export type AuditEntry = z.output<typeof AuditEntry>;
