import type { DbCtx } from "../../meta/context";
import { docsView, readDocsRow } from "../../docs/docs-settings";

export type GetDocsSettingsInput = { instance: string };

/** GET /databases/{instance}/docs: whether the docs are public, where, and the custom domain's state. */
export const getDocsSettings = async (ctx: DbCtx, { instance }: GetDocsSettingsInput) => {
  const { schema } = ctx.database;
  return docsView(ctx.app, schema.instance, ctx.origin, await readDocsRow(ctx.app.engine.meta, schema.id));
};
