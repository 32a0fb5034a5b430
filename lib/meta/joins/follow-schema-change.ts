// Joins follow renames of the tables and columns they use, and block dropping them (409 naming the join).
import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import { conflict } from "../../errors";
import { formatJoinSql } from "../../joins/format-join-sql";
import { joinsUsingColumn, joinsUsingTable, renameInJoin } from "../../joins/join-refs";
import type { DatabaseSchema } from "../../schema/types";

export const refuseIfJoinsUse = (schema: DatabaseSchema, table: string, column?: string) => {
  const users = column === undefined ? joinsUsingTable(schema, table) : joinsUsingColumn(schema, table, column);
  if (!users.length) return;
  const names = users.map((j) => `"${j.name}"`).join(", ");
  const what = column === undefined ? `Table "${table}"` : `Column "${table}.${column}"`;
  throw conflict(`${what} is used by join ${names}; change or delete the join first.`);
};

/** Rewrites the joins that use a renamed table (`{table}`) or column (`{from, column}`); call in the same transaction. */
export const renameInJoins = async (
  trx: Kysely<MetaDb> | Transaction<MetaDb>,
  schema: DatabaseSchema,
  table: string,
  to: { table: string } | { from: string; column: string },
) => {
  const users = "table" in to ? joinsUsingTable(schema, table) : joinsUsingColumn(schema, table, to.from);
  for (const join of users) {
    const { id, name: _name, sql, ...definition } = renameInJoin(join, table, to);
    // The stored SQL named the old table or column; it is written anew from the renamed structure.
    await trx
      .updateTable("joins")
      .set({ definition: JSON.stringify(definition), sql: sql ? formatJoinSql(definition) : null })
      .where("id", "=", id)
      .execute();
  }
};
