import type { Caller } from "../../api/authenticate";
import { countSql, existingIdsSql, selectPageSql } from "../../api/build-sql";
import { indexTableForUsers, toRecord } from "../../api/table-index";
import { parseQueryField } from "../../api/parse-query";
import type { z } from "zod";
import { ApiError, notFound, validationFailed } from "../../errors";
import type { TestAsUserInput as TestAsUserBody } from "../../contract/schemas/auth";
import { rowFilter } from "../../rls/row-filter";
import type { PolicyAction } from "../../schema/types";
import type { DbCtx } from "../../meta/context";
import { getTableOrThrow } from "../tables/get-table-or-throw";

/** Rows shown when the query sets no `_limit`. */
const ROW_LIMIT = 100;

export type TestAsUserInput = { instance: string; body: z.output<typeof TestAsUserBody> };

/**
 * POST /databases/{instance}/auth/test-as-user {user_id, table, query?}: what the data API allows that user on
 * that table, computed with the very predicates the API uses: which actions are open, the page of visible rows
 * `query` asks for (the data API's filters, `_or`, `_sort`, `_limit` (default 100), `_offset`), how many visible
 * rows match, and for each row of the page whether the user may update or delete it.
 */
export const testAsUser = async (ctx: DbCtx, { body: { user_id: userId, table: tableName, query: queryText } }: TestAsUserInput) => {
  const { schema, auth } = ctx.database;
  if (!auth?.enabled) throw new ApiError("conflict", "Database auth is not enabled for this database; turn it on first.");
  const table = getTableOrThrow(schema, tableName);
  const index = indexTableForUsers(table);
  const { query, errors } = parseQueryField(queryText ?? "", index.byName, "query", { rows: false, limit: ROW_LIMIT });
  if (!query) throw validationFailed(errors);
  const udb = ctx.app.engine.userDb(schema.physical);
  const users = indexTableForUsers(getTableOrThrow(schema, auth.users_table));
  const found = await existingIdsSql(udb, users.table.name, [userId]).execute(udb.db);
  if (found.rows.length === 0) throw notFound(`No user with id ${userId} in ${users.table.name}.`);
  const now = Math.floor(Date.now() / 1000);
  const caller: Caller = { kind: "user", userId, databaseId: schema.id, claims: { sub: String(userId), db: schema.instance, role: "authenticated", iat: now, exp: now + 300 } };
  const filters = Object.fromEntries((["select", "insert", "update", "delete"] as PolicyAction[]).map((a) => [a, rowFilter(caller, schema, table.name, a)]));
  const actions = Object.fromEntries(Object.entries(filters).map(([a, f]) => [a, f === "deny" ? "denied" : "allowed"]));
  const select = filters.select;
  if (select === "deny" || select === undefined) return { actions, total: 0, rows: [] };
  const { rows } = await selectPageSql(udb, table.name, index.all, query, [select]).execute(udb.db);
  const counted = await countSql(udb, table.name, query.filters, [select]).execute(udb.db);
  const ids = (rows as { id: unknown }[]).map((r) => Number(r.id));
  const allowedIds = async (action: "update" | "delete") => {
    const f = filters[action];
    if (f === "deny" || f === undefined || ids.length === 0) return new Set<number>();
    return new Set((await existingIdsSql(udb, table.name, ids, [f]).execute(udb.db)).rows.map((r) => Number(r.id)));
  };
  const [updatable, deletable] = [await allowedIds("update"), await allowedIds("delete")];
  return {
    actions,
    total: Number(counted.rows[0]?.n ?? 0),
    rows: (rows as Record<string, unknown>[]).map((r) => ({
      record: toRecord(index, r),
      update: updatable.has(Number(r.id)),
      delete: deletable.has(Number(r.id)),
    })),
  };
};
