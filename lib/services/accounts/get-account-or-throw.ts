import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import { notFound } from "../../errors";
import { pathId } from "../../http/path-id";

/** The account a path names (`accounts/{account}`), or a 404 worded once. */
export const getAccountOrThrow = async (db: Kysely<MetaDb> | Transaction<MetaDb>, raw: string) => {
  const message = `Account ${raw} was not found.`;
  const row = await db
    .selectFrom("accounts")
    .select(["id", "email", "is_operator", "disabled_at"])
    .where("id", "=", pathId(raw, message))
    .executeTakeFirst();
  if (!row) throw notFound(message);
  return row;
};
