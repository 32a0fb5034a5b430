import type { Ctx } from "../meta/context";
import { getDatabaseOrThrow } from "../meta/databases/get-database-or-throw";
import { docsView, readDocsRow } from "./docs-settings";

export type GetDocsSettingsInput = { instance: string };

/** GET /databases/{instance}/docs: whether the docs are public, where, and the custom domain's state. */
export const getDocsSettings = async (ctx: Ctx, { instance }: GetDocsSettingsInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  return docsView(ctx.app, schema.instance, ctx.origin, await readDocsRow(ctx.app.engine.meta, schema.id));
};
