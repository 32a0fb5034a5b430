// What the saved-view verbs share: the row → API shape, the checks of a view against its table, and who may
// change which view (private views are their creator's; shared ones need write, and an admin for another's).
import type { Selectable } from "kysely";
import { parseQueryField } from "../../api/parse-query";
import type { SavedViewsTable } from "../../db/meta-schema";
import { ApiError, type FieldError, validationFailed } from "../../errors";
import { roleAllows } from "../../teams/permissions";
import { recordColumns, type TableDef } from "../../schema/types";
import type { Ctx } from "../../meta/context";

type Row = Selectable<SavedViewsTable>;

export const toSavedView = (ctx: Ctx, row: Row) => ({
  id: row.id,
  name: row.name,
  query: row.query,
  hidden_columns: JSON.parse(row.hidden_columns) as string[],
  shared: row.shared === 1,
  created_by: row.account_id,
  mine: row.account_id === ctx.actor.accountId,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The query must read like a GET of the table would, and hidden columns must be its columns. */
export const checkViewAgainstTable = (table: TableDef, { query, hidden_columns }: { query?: string; hidden_columns?: string[] }) => {
  const columns = new Map(recordColumns(table).map((c) => [c.name, c]));
  const errors: FieldError[] = [];
  if (query !== undefined) errors.push(...parseQueryField(query, columns, "query").errors);
  hidden_columns?.forEach((name, i) => {
    if (!columns.has(name)) errors.push({ field: `hidden_columns[${i}]`, code: "unknown_column", message: `"${name}" is not a column of ${table.name}` });
  });
  if (errors.length) throw validationFailed(errors);
};

const canWrite = (ctx: Ctx) => !!ctx.role && roleAllows(ctx.role, "database:write");
const canAdmin = (ctx: Ctx) => !!ctx.role && roleAllows(ctx.role, "database:admin");

export const SHARE_REFUSED = "Sharing a view with the workspace needs an editor, an admin or the owner; viewers save private views.";
export const OTHERS_VIEW_REFUSED = "This shared view was made by someone else: only its creator (with edit rights), an admin or the owner may change it.";

/** Sharing (creating shared, or turning sharing on) needs write. */
export const assertMayShare = (ctx: Ctx, shared: boolean | undefined) => {
  if (shared && !canWrite(ctx)) throw new ApiError("forbidden", SHARE_REFUSED);
};

/** Changing or deleting an existing view: the creator (write needed while it is shared), or an admin for a shared one. */
export const assertMayChange = (ctx: Ctx, row: Row) => {
  const mine = row.account_id === ctx.actor.accountId;
  if (mine ? row.shared === 1 && !canWrite(ctx) : !canAdmin(ctx)) throw new ApiError("forbidden", mine ? SHARE_REFUSED : OTHERS_VIEW_REFUSED);
};
