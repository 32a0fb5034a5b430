// GET /api/v1/audit: a workspace's audit entries (its owner and admins), or every entry (the operator), newest
// first, filtered by database, actor and action, paged by the last id seen.
import type { Selectable } from "kysely";
import type { AuditLogTable } from "../../db/meta-schema";
import type { AuditEntry, AuditQuery } from "../../contract/schemas/audit";
import type { Ctx } from "../../meta/context";

const parse = (text: string | null) => (text === null ? undefined : (JSON.parse(text) as unknown));

export const auditEntryView = (row: Selectable<AuditLogTable>): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor: { id: row.actor_id, email: row.actor_email },
  via: row.via as AuditEntry["via"],
  ip: row.ip,
  action: row.action,
  ...(row.database_instance !== null && { database: row.database_instance }),
  target: row.target,
  ...(row.before_json !== null && { before: parse(row.before_json) }),
  ...(row.after_json !== null && { after: parse(row.after_json) }),
});

export const listAudit = async (ctx: Ctx, { query }: { query: AuditQuery }) => {
  // authorize chose the workspace (`?workspace=` or the caller's own); the operator without one reads them all.
  const everything = ctx.actor.isOperator && query.workspace === undefined;
  const limit = query._limit ?? 50;
  const { actor, action } = query;
  const rows = await ctx.app.engine.meta
    .selectFrom("audit_log")
    .selectAll()
    .$if(!everything, (q) => q.where("workspace_id", "=", ctx.workspaceId ?? ctx.actor.accountId))
    .$if(query.database !== undefined, (q) => q.where("database_instance", "=", query.database!))
    .$if(actor !== undefined, (q) => (/^\d+$/.test(actor!) ? q.where("actor_id", "=", Number(actor)) : q.where("actor_email", "=", actor!.trim().toLowerCase())))
    .$if(action !== undefined, (q) => (action!.endsWith(".") ? q.where("action", ">=", action!).where("action", "<", `${action!.slice(0, -1)}/`) : q.where("action", "=", action!)))
    .$if(query._after !== undefined, (q) => q.where("id", "<", query._after!))
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const entries = rows.map(auditEntryView);
  // A full page may have more after it: Link names the next one (its cursor is also the last entry's id).
  if (entries.length === limit && ctx.responseHeaders) {
    ctx.responseHeaders.link = `<${ctx.origin ?? ""}/api/v1/audit?${nextQuery(query, entries[entries.length - 1].id)}>; rel="next"`;
  }
  return entries;
};

const nextQuery = (query: AuditQuery, after: number) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, _after: after })) if (value !== undefined) params.set(name, String(value));
  return params.toString();
};
