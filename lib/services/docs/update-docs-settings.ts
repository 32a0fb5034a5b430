import { randomBytes } from "node:crypto";
import { docsConfig } from "../../config";
import { conflict } from "../../errors";
import { type DbCtx, nowIso } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { parseDomain } from "../../docs/domain-name";
import { docsView, readDocsRow } from "../../docs/docs-settings";

export type UpdateDocsSettingsInput = { instance: string; body: { public: boolean; domain?: string | null } };

const taken = (domain: string) =>
  conflict(`The domain ${domain} is verified by another database and serves its docs; remove it there first.`, [
    { field: "domain", code: "domain_taken", message: `${domain} belongs to another database` },
  ]);

/**
 * PUT /databases/{instance}/docs: switches the public docs and sets the custom domain (absent: kept; null:
 * removed). A new domain starts pending with a new TXT token; a pending claim reserves nothing (several
 * databases may claim one; the first to verify owns it), a domain another database verified is 409. The route's
 * `custom_domain` quota refuses a domain on a plan without custom domains (402) inside this transaction.
 */
export const updateDocsSettings = async (ctx: DbCtx, { instance, body }: UpdateDocsSettingsInput) => {
  const { schema } = ctx.database;
  const domain = typeof body.domain === "string" ? parseDomain(body.domain, docsConfig(ctx.app.config).cnameTarget) : body.domain;
  await commitMeta(ctx, { kind: "docs", databaseId: schema.id }, async (trx) => {
    const row = await readDocsRow(trx, schema.id);
    const next = domain === undefined ? (row?.domain ?? null) : domain;
    const changed = next !== (row?.domain ?? null);
    if (next && changed) {
      const owner = await trx.selectFrom("database_docs").select("database_id").where("verified_domain", "=", next).executeTakeFirst();
      if (owner) throw taken(next);
    }
    const domainFields = changed
      ? { domain: next, domain_status: next ? ("pending" as const) : ("none" as const), domain_error: null, token: next ? randomBytes(16).toString("hex") : null, verified_domain: null, verified_at: null, checked_at: null }
      : {};
    const fields = { public: body.public ? 1 : 0, updated_at: nowIso(), ...domainFields };
    if (row) await trx.updateTable("database_docs").set(fields).where("database_id", "=", schema.id).execute();
    else await trx.insertInto("database_docs").values({ database_id: schema.id, domain: null, domain_status: "none", ...fields }).execute();
  });
  return docsView(ctx.app, schema.instance, ctx.origin, await readDocsRow(ctx.app.engine.meta, schema.id));
};
