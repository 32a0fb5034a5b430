// The audit log's one route: reading it. Entries are written by the changes themselves (lib/meta/audit) and
// nothing can change or delete them through the API.
import { z } from "zod";
import { AuditEntry, AuditQuery } from "../contract/schemas/audit";
import { listAudit } from "../services/audit/list-audit";
import { defineRoute } from "./route";

export const AUDIT_ROUTES = [
  defineRoute({
    method: "GET", path: "audit", permission: "workspace:admin", workspaceFrom: "query", tag: "Audit", operationId: "listAudit",
    summary: "Read the audit log",
    description:
      "Every management change and dashboard sign-in of the workspace, newest first: who (`actor`, `via`, `ip`), what (`action`, `database`, `target`) and the values (`before`, `after`; secrets are never recorded). The workspace's owner and its admins read it (`?workspace=<owner id>` for another's); the operator of the install reads every entry when no workspace is named. Page with `_after=<last id>` (a full page also answers a `Link: rel=\"next\"`). Entries are kept `AUDIT_DAYS` (90) days.",
    query: AuditQuery, status: 200, response: z.array(AuditEntry),
    run: (ctx, { query }) => listAudit(ctx, { query }),
  }),
];
