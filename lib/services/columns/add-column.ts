import type { z } from "zod";
import type { ColumnInput } from "../../contract/schemas/columns";
import type { DbCtx } from "../../meta/context";
import { addColumnsTo } from "./add-columns";

export type AddColumnInput = { instance: string; table: string; body: z.output<typeof ColumnInput> };

/** Adds one column to a table; existing rows get its default (required for NOT NULL on a non-empty table). */
export const addColumn = async (ctx: DbCtx, { table, body }: AddColumnInput) => (await addColumnsTo(ctx, table, [body], (_i, field) => field))[0];
