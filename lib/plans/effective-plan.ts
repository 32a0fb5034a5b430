import type { Kysely, Selectable, Transaction } from "kysely";
import type { MetaDb, PlansTable } from "../db/meta-schema";
import { notFound } from "../errors";
import type { Plan } from "./default-plans";
import { UNLIMITED_PLAN } from "./default-plans";

type MetaReader = Kysely<MetaDb> | Transaction<MetaDb>;

export const planFromRow = (row: Selectable<PlansTable>): Plan => ({
  name: row.name,
  max_databases: row.max_databases,
  max_invitees: row.max_invitees,
  roles: JSON.parse(row.roles),
  custom_domain: row.custom_domain === 1,
  ai_calls_per_month: row.ai_calls_per_month,
  requests_per_second: row.requests_per_second,
  max_webhooks_per_database: row.max_webhooks_per_database,
  storage_bytes: row.storage_bytes === null ? null : Number(row.storage_bytes),
});

/** The plan in force for an account: the one its row names, or unlimited for the operator. */
export const effectivePlan = async (db: MetaReader, accountId: number): Promise<Plan> => {
  const row = await db
    .selectFrom("accounts")
    .leftJoin("plans", "plans.name", "accounts.plan")
    .selectAll("plans")
    .select(["accounts.is_operator", "accounts.plan as account_plan"])
    .where("accounts.id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw notFound(`Account ${accountId} was not found.`);
  if (row.is_operator === 1) return UNLIMITED_PLAN;
  // A plan row cannot be deleted, so a missing one means the install's data was edited by hand: limit to nothing.
  if (row.name === null) return { ...UNLIMITED_PLAN, name: row.account_plan, max_databases: 0, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: 0, max_webhooks_per_database: 0, storage_bytes: 0 };
  return planFromRow(row as Selectable<PlansTable>);
};

export const planExists = async (db: MetaReader, name: string) =>
  !!(await db.selectFrom("plans").select("name").where("name", "=", name).executeTakeFirst());
