// Joins follow renames of the tables and columns they use, and block dropping them (409 naming the join).
import { conflict } from "../../errors";
import { formatJoinSql } from "../../joins/format-join-sql";
import { joinsUsingColumn, joinsUsingTable, renameInJoin } from "../../joins/join-refs";
import type { DatabaseSchema, JoinDef } from "../../schema/types";
import { columnRename, type MetaTrx, type SchemaDependent } from "./schema-change";

const refuseIfUsed = (users: JoinDef[], what: string) => {
  if (!users.length) return;
  throw conflict(`${what} is used by join ${users.map((j) => `"${j.name}"`).join(", ")}; change or delete the join first.`);
};

const rewrite = async (trx: MetaTrx, joins: JoinDef[]) => {
  for (const { id, name: _name, sql, ...definition } of joins) {
    // The stored SQL named the old table or column; it is written anew from the renamed structure.
    await trx
      .updateTable("joins")
      .set({ definition: JSON.stringify(definition), sql: sql ? formatJoinSql(definition) : null })
      .where("id", "=", id)
      .execute();
  }
};

export const joinsDependent: SchemaDependent = {
  name: "joins",
  refuse: (schema: DatabaseSchema, change) => {
    if (change.kind === "drop-table") refuseIfUsed(joinsUsingTable(schema, change.table.name), `Table "${change.table.name}"`);
    if (change.kind === "drop-column") {
      const { table, column } = change;
      refuseIfUsed(joinsUsingColumn(schema, table.name, column.name), `Column "${table.name}.${column.name}"`);
    }
  },
  follow: async (trx, schema, change) => {
    const rename = columnRename(change);
    if (rename) {
      const { table, from, to } = rename;
      await rewrite(trx, joinsUsingColumn(schema, table.name, from).map((j) => renameInJoin(j, table.name, { from, column: to })));
    }
    if (change.kind === "rename-table") {
      const { table, to } = change;
      await rewrite(trx, joinsUsingTable(schema, table.name).map((j) => renameInJoin(j, table.name, { table: to })));
    }
  },
};
