// GET /databases/{instance}/auth/users: a page of database users in id order, searched by login or email.
import type { z } from "zod";
import { selectPageSql } from "../../api/build-sql";
import type { ColumnFilter, Filter } from "../../api/parse-query";
import { emailColumn, type UserRow, usersIndex } from "../../db-auth/auth-database";
import type { AuthUsersQuery } from "../../contract/schemas/auth-users";
import type { DbCtx } from "../../meta/context";
import { authDatabaseOf, describeUsers } from "./describe-users";

export type ListAuthUsersInput = { instance: string; query: z.output<typeof AuthUsersQuery> };

export const listAuthUsers = async (ctx: DbCtx, { query }: ListAuthUsersInput) => {
  const database = authDatabaseOf(ctx);
  const index = usersIndex(database);
  const udb = ctx.app.engine.userDb(database.schema.physical);
  const limit = query._limit ?? 50;
  const filters: Filter[] = [];
  if (query._after !== undefined) filters.push({ column: index.byName.get("id")!, op: "gt", value: query._after });
  if (query.q) {
    const searched = [...new Set([database.auth.login_column, emailColumn(database)])];
    const or: ColumnFilter[] = searched.map((name) => ({ column: index.byName.get(name)!, op: "ilike", value: query.q }));
    filters.push(or.length === 1 ? or[0] : { or });
  }
  const page = { filters, sort: [{ column: index.byName.get("id")!, desc: false }], limit: limit + 1, offset: 0 };
  const { rows } = await selectPageSql(udb, index.table.name, index.all, page).execute(udb.db);
  const shown = (rows as UserRow[]).slice(0, limit);
  return { users: await describeUsers(ctx.app.engine.meta, database, shown), next_after: rows.length > limit ? Number(shown[shown.length - 1].id) : null };
};
