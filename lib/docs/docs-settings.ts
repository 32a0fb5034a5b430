// A database's public-docs settings as stored (database_docs, one row at most) and as the API shows them.
import type { AuditSlot } from "../meta/audit/audit-slot";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { z } from "zod";
import type { App } from "../app-type";
import { docsConfig } from "../config";
import type { DatabaseDocsTable, MetaDb } from "../db/meta-schema";
import { nowIso } from "../meta/context";
import { commitMeta } from "../meta/commit-meta";
import type { DocsSettings as DocsSettingsSchema } from "../contract/schemas/docs";
import { type DomainCheck, txtRecord } from "./check-domain";
import { isUniqueViolation } from "../db/unique-violation";

export type DocsRow = Selectable<DatabaseDocsTable>;
export type DomainStatus = DatabaseDocsTable["domain_status"];

/** What GET/PUT/verify answer (the route's response schema). */
export type DocsSettings = z.output<typeof DocsSettingsSchema>;

type MetaReader = Kysely<MetaDb> | Transaction<MetaDb>;

export const readDocsRow = (db: MetaReader, databaseId: number): Promise<DocsRow | undefined> =>
  db.selectFrom("database_docs").selectAll().where("database_id", "=", databaseId).executeTakeFirst();

/** What GET/PUT/verify answer; a database never configured shows the defaults (private, no domain). */
export const docsView = (app: App, instance: string, origin: string | undefined, row: DocsRow | undefined): DocsSettings => {
  const isPublic = row?.public === 1;
  const domain = row?.domain ?? null;
  return {
    public: isPublic,
    url: isPublic ? `${origin ?? app.config.docs?.apiUrl ?? ""}/docs/${instance}` : null,
    domain,
    domain_status: row?.domain_status ?? "none",
    domain_error: row?.domain_error ?? null,
    checked_at: row?.checked_at ?? null,
    cname_target: docsConfig(app.config).cnameTarget,
    txt: domain && row?.token ? txtRecord(domain, row.token) : null,
  };
};

/** verified only when both records are right; a verified (or failing) domain that is no longer right is failing, never pending. */
const statusAfter = (previous: DomainStatus, check: DomainCheck): DomainStatus =>
  check.ok ? "verified" : previous === "verified" || previous === "failing" ? "failing" : "pending";

/** Why a right DNS proof still does not verify: another database verified the domain first and owns it. */
const verifiedElsewhere = (domain: string): DomainCheck => ({
  ok: false,
  reason: `${domain} is already verified by another database of this install (the first to verify owns it); remove it there, then verify again`,
});

const ownedElsewhere = async (db: MetaReader, row: DocsRow) =>
  !!(await db.selectFrom("database_docs").select("database_id").where("verified_domain", "=", row.domain).where("database_id", "!=", row.database_id).executeTakeFirst());

/**
 * Stores one check's outcome, if the row still holds the domain that was checked (the owner may have changed it
 * meanwhile). The first database to verify a domain owns it (the unique `verified_domain` decides a race); a
 * later one fails with that reason. Publishes `docs` when the status moved, so the host cache follows.
 */
export const recordCheck = async (app: App, row: DocsRow, dnsCheck: DomainCheck, audit?: AuditSlot): Promise<DocsRow | undefined> => {
  let check = dnsCheck.ok && (await ownedElsewhere(app.engine.meta, row)) ? verifiedElsewhere(row.domain!) : dnsCheck;
  try {
    await storeCheck(app, row, check, audit);
  } catch (err) {
    if (!check.ok || !isUniqueViolation(err)) throw err;
    check = verifiedElsewhere(row.domain!);
    await storeCheck(app, row, check, audit);
  }
  return readDocsRow(app.engine.meta, row.database_id);
};

const storeCheck = async (app: App, row: DocsRow, check: DomainCheck, audit?: AuditSlot) => {
  const status = statusAfter(row.domain_status, check);
  const now = nowIso();
  const moved = status !== row.domain_status;
  await commitMeta({ app, audit }, () => (moved ? { kind: "docs", databaseId: row.database_id } : undefined), async (trx) => {
    await trx
      .updateTable("database_docs")
      .set({
        domain_status: status,
        domain_error: check.ok ? null : check.reason,
        checked_at: now,
        ...(check.ok ? { verified_domain: row.domain } : {}),
        ...(check.ok && moved ? { verified_at: now } : {}),
      })
      .where("database_id", "=", row.database_id)
      .where("domain", "=", row.domain)
      .execute();
  });
};
