import { commitAuditOnly } from "../../meta/commit-meta";
import { docsConfig } from "../../config";
import type { DbCtx } from "../../meta/context";
import { checkDomain } from "../../docs/check-domain";
import { docsView, readDocsRow, recordCheck } from "../../docs/docs-settings";

export type VerifyDocsDomainInput = { instance: string };

/** POST /databases/{instance}/docs/verify: looks up the CNAME and the TXT token now and stores the outcome. */
export const verifyDocsDomain = async (ctx: DbCtx, { instance }: VerifyDocsDomainInput) => {
  const { schema } = ctx.database;
  const row = await readDocsRow(ctx.app.engine.meta, schema.id);
  // Nothing to verify without a domain: the settings as they are (domain_status none).
  if (!row?.domain || !row.token) return commitAuditOnly(ctx).then(() => docsView(ctx.app, schema.instance, ctx.origin, row));
  const checked = await recordCheck(ctx.app, row, await checkDomain(docsConfig(ctx.app.config), row.domain, row.token), ctx.audit);
  return docsView(ctx.app, schema.instance, ctx.origin, checked);
};
