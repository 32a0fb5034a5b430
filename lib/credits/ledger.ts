// The credits ledger: one-time credits (extra databases, AI calls) that never expire while the account is
// active. Rows are only ever appended; a balance is the sum of their deltas. Writers lock the account row
// first (lockAccount), so two requests can never spend the same credit.
import { commitAuditOnly, commitRows } from "../meta/commit-meta";
import { type AuditSlot, noteAudit } from "../meta/audit/audit-slot";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { App } from "../app-type";
import type { CreditLedgerTable, MetaDb } from "../db/meta-schema";
import { ApiError, conflict, notFound } from "../errors";
import { nowIso } from "../meta/context";
import { isUniqueViolation } from "../db/unique-violation";

import { type CreditKind, type LedgerEntryKind } from "./ledger-kinds";
import { metaTransaction } from "../db/meta-transaction";

export { CREDIT_KINDS, type CreditKind } from "./ledger-kinds";

type MetaReader = Kysely<MetaDb> | Transaction<MetaDb>;
type Trx = Transaction<MetaDb>;

/** A ledger row as the API shows it (without the account it belongs to). */
export type LedgerEntry = Omit<Selectable<CreditLedgerTable>, "account_id" | "kind" | "entry"> & { kind: CreditKind; entry: LedgerEntryKind };

const entryView = (row: Selectable<CreditLedgerTable>): LedgerEntry => ({
  id: row.id,
  kind: row.kind as CreditKind,
  entry: row.entry as LedgerEntryKind,
  amount: row.amount,
  delta: row.delta,
  source: row.source,
  hold_id: row.hold_id,
  note: row.note,
  actor: row.actor,
  created_at: row.created_at,
});

/**
 * Serialises writers per account until the transaction ends: a no-op UPDATE takes the row lock on MySQL/MariaDB
 * and the write lock on SQLite, so the counts and balances read after it are the committed ones.
 */
export const lockAccount = async (trx: Trx, accountId: number) => {
  await trx.updateTable("accounts").set((eb) => ({ plan: eb.ref("plan") })).where("id", "=", accountId).execute();
  const found = await trx.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
  if (!found) throw notFound(`Account ${accountId} was not found.`);
};

export const creditBalances = async (db: MetaReader, accountId: number): Promise<Record<CreditKind, number>> => {
  const rows = await db
    .selectFrom("credit_ledger")
    .select(["kind", (eb) => eb.fn.sum<number | string>("delta").as("balance")])
    .where("account_id", "=", accountId)
    .groupBy("kind")
    .execute();
  const balances = { databases: 0, ai_calls: 0 };
  for (const r of rows) if (r.kind in balances) balances[r.kind as CreditKind] = Number(r.balance);
  return balances;
};

/** How many credits of a kind were spent without a hold: for databases, how far the limit was raised for good. */
export const directSpends = async (db: MetaReader, accountId: number, kind: CreditKind) => {
  const row = await db
    .selectFrom("credit_ledger")
    .select((eb) => eb.fn.sum<number | string | null>("amount").as("spent"))
    .where("account_id", "=", accountId)
    .where("kind", "=", kind)
    .where("entry", "=", "spend")
    .where("hold_id", "is", null)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
};

const append = async (trx: Trx, values: Omit<Selectable<CreditLedgerTable>, "id" | "created_at">) => {
  const { insertId } = await trx.insertInto("credit_ledger").values({ ...values, created_at: nowIso() }).executeTakeFirstOrThrow();
  const row = await trx.selectFrom("credit_ledger").selectAll().where("id", "=", Number(insertId)).executeTakeFirstOrThrow();
  return entryView(row);
};


export type GrantInput = { accountId: number; kind: CreditKind; amount: number; source?: string | null; note?: string | null; actor: string; audit?: AuditSlot };

/**
 * Adds credits. A grant's `source` (the purchase) is unique: granting the same source again, even at the same
 * moment from another process, returns the first grant with `duplicate: true` and adds nothing.
 */
export type GrantResult = { accountId: number; entry: LedgerEntry; duplicate: boolean };

export const grantCredits = async (app: App, input: GrantInput): Promise<GrantResult> => {
  const meta = app.engine.meta;
  const existing = async () => {
    if (!input.source) return undefined;
    const row = await meta.selectFrom("credit_ledger").selectAll().where("source", "=", input.source).executeTakeFirst();
    return row && { accountId: row.account_id, entry: entryView(row), duplicate: true };
  };
  // A replay adds nothing but is still recorded: the caller asked for the grant.
  noteAudit({ audit: input.audit }, { workspaceId: input.accountId, target: `account ${input.accountId}` });
  const replayed = async (grant: GrantResult) => (await commitAuditOnly({ app, audit: input.audit }), grant);
  const earlier = await existing();
  if (earlier) return replayed(earlier);
  try {
    const entry = await commitRows({ app, audit: input.audit }, async (trx) => {
      await lockAccount(trx, input.accountId);
      return append(trx, {
        account_id: input.accountId,
        kind: input.kind,
        entry: "grant",
        amount: input.amount,
        delta: input.amount,
        source: input.source ?? null,
        hold_id: null,
        note: input.note ?? null,
        actor: input.actor,
      });
    });
    return { accountId: input.accountId, entry, duplicate: false };
  } catch (err) {
    const raced = isUniqueViolation(err) ? await existing() : undefined;
    if (raced) return replayed(raced);
    throw err;
  }
};

const outOfCredits = (kind: CreditKind, balance: number) =>
  new ApiError("quota_exceeded", `This account has no ${kind === "ai_calls" ? "AI call" : "database"} credits left; buy more or ask the operator of this install.`, {
    quota: { kind, limit: 0, used: 0, credits: balance },
  });

/** Spends credits at once (no hold), inside the caller's transaction, which must hold lockAccount. */
export const spendCredits = async (trx: Trx, input: { accountId: number; kind: CreditKind; amount: number; note: string; actor: string }) => {
  const balance = (await creditBalances(trx, input.accountId))[input.kind];
  if (balance < input.amount) throw outOfCredits(input.kind, balance);
  return append(trx, { account_id: input.accountId, kind: input.kind, entry: "spend", amount: input.amount, delta: -input.amount, source: null, hold_id: null, note: input.note, actor: input.actor });
};

type HoldInput = { accountId: number; kind: CreditKind; amount: number; note: string; actor: string };

/** A hold inside the caller's transaction (which must hold lockAccount). */
export const holdCreditsIn = async (trx: Trx, input: HoldInput) => {
  const balance = (await creditBalances(trx, input.accountId))[input.kind];
  if (balance < input.amount) throw outOfCredits(input.kind, balance);
  return append(trx, { account_id: input.accountId, kind: input.kind, entry: "hold", amount: input.amount, delta: -input.amount, source: null, hold_id: null, note: input.note, actor: input.actor });
};

/** Reserves credits before work that may fail (an AI call): the balance drops now; settleHold spends or releases it. */
export const holdCredits = async (app: App, input: HoldInput) =>
  metaTransaction(app.engine.meta, async (trx) => {
    await lockAccount(trx, input.accountId);
    return holdCreditsIn(trx, input);
  });

/**
 * Settles a hold once: `spend` keeps the credits taken (delta 0), `release` gives them back. A second settle
 * of the same hold is a 409 (hold_id is unique), so a retried failure can never refund twice.
 */
export const settleHold = async (app: App, holdId: number, how: "spend" | "release", actor: string) => {
  try {
    return await metaTransaction(app.engine.meta, async (trx) => {
      const hold = await trx.selectFrom("credit_ledger").selectAll().where("id", "=", holdId).where("entry", "=", "hold").executeTakeFirst();
      if (!hold) throw notFound(`Hold ${holdId} was not found.`);
      return append(trx, {
        account_id: hold.account_id,
        kind: hold.kind,
        entry: how,
        amount: hold.amount,
        delta: how === "release" ? hold.amount : 0,
        source: null,
        hold_id: holdId,
        note: null,
        actor,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`Hold ${holdId} is already settled.`);
    throw err;
  }
};

/** The ledger of one account, newest first, and its balances. */
export const readLedger = async (db: MetaReader, accountId: number) => {
  const rows = await db.selectFrom("credit_ledger").selectAll().where("account_id", "=", accountId).orderBy("id", "desc").execute();
  return { balances: await creditBalances(db, accountId), entries: rows.map(entryView) };
};
