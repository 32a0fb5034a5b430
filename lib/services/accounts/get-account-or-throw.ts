import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import { notFound } from "../../errors";

/** The account a path names (`accounts/{account}`), or a 404 worded once. */
export const getAccountOrThrow = async (db: Kysely<MetaDb> | Transaction<MetaDb>, id: number) => {
  const row = await db
    .selectFrom("accounts")
    .select(["id", "email", "is_operator", "disabled_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound(`Account ${id} was not found.`);
  return row;
};
