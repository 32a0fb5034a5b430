// Writes audit entries: a request's pending entry inside the transaction of its change, or a sign-in's on its own.
import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import { type AuditSlot, auditValue } from "./audit-slot";

type Trx = Kysely<MetaDb> | Transaction<MetaDb>;

const MAX_JSON = 65_536;

const jsonOf = (value: unknown) => {
  if (value === undefined) return null;
  const text = JSON.stringify(auditValue(value));
  return text.length > MAX_JSON ? JSON.stringify({ truncated: true, size: text.length }) : text;
};

/** Inserts one entry as the slot describes it, now. */
export const insertAuditEntry = async (trx: Trx, slot: Omit<AuditSlot, "written">) => {
  const email =
    slot.actorEmail ?? (slot.actorId ? (await trx.selectFrom("accounts").select("email").where("id", "=", slot.actorId).executeTakeFirst())?.email : undefined);
  await trx
    .insertInto("audit_log")
    .values({
      at: new Date().toISOString(),
      workspace_id: slot.workspaceId,
      actor_id: slot.actorId,
      actor_email: email ?? null,
      via: slot.via,
      ip: slot.ip?.slice(0, 64) ?? null,
      action: slot.action,
      database_id: slot.databaseId,
      database_instance: slot.database,
      target: slot.target.slice(0, 255),
      before_json: jsonOf(slot.before),
      after_json: jsonOf(slot.after),
    })
    .execute();
};

/**
 * The request's pending entry, in the transaction of its change: written once per request (a later
 * transaction of the same request writes none). Answers whether this call wrote it, so the caller can mark it
 * pending again when the transaction rolls back (`releaseAudit`).
 */
export const writePendingAudit = async (trx: Trx, slot: AuditSlot | undefined): Promise<boolean> => {
  if (!slot || slot.written) return false;
  await insertAuditEntry(trx, slot);
  slot.written = true;
  return true;
};

/** Runs a metadata transaction that may write the pending entry; when it fails, the entry is pending again. */
export const auditedTransaction = async <T>(slot: AuditSlot | undefined, run: (wrote: () => void) => Promise<T>): Promise<T> => {
  let wrote = false;
  try {
    return await run(() => (wrote = true));
  } catch (err) {
    if (wrote && slot) slot.written = false;
    throw err;
  }
};
