import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import { notFound } from "../../errors";
import type { TableDef } from "../../schema/types";
import type { Ctx } from "../../meta/context";

/** A view of the table that the caller can see (shared, or their own); anything else is the same 404. */
export const getViewOrThrow = async (ctx: Ctx, db: Kysely<MetaDb> | Transaction<MetaDb>, table: TableDef, id: number) => {
  const row = await db.selectFrom("saved_views").selectAll().where("id", "=", id).where("table_id", "=", table.id).executeTakeFirst();
  if (!row || (row.shared !== 1 && row.account_id !== ctx.actor.accountId)) throw notFound(`View ${id} was not found on table "${table.name}".`);
  return row;
};
