import { listJoinRecords } from "../../api/read-join";
import type { z } from "zod";
import type { JoinPreviewInput } from "../../contract/schemas/joins";
import type { DbCtx } from "../../meta/context";
import { readJoinInput } from "./read-join-input";

const PREVIEW_ROWS = 5;

export type PreviewJoinInput = { instance: string; body: z.output<typeof JoinPreviewInput> };

/**
 * POST .../joins/preview: checks an unsaved definition (either form; `name` optional) and returns its structured
 * form with the first rows, read through the data API's own join pipeline.
 */
export const previewJoin = async (ctx: DbCtx, { body }: PreviewJoinInput) => {
  const { schema } = ctx.database;
  const spec = await readJoinInput({ ...body, name: body.name ?? "preview" }, schema);
  const udb = ctx.app.engine.userDb(schema.physical);
  // A fresh object each time, so the plan cache (keyed by definition) never grows with previews.
  const reply = await listJoinRecords(udb, schema, { id: 0, ...spec }, new URLSearchParams({ _limit: String(PREVIEW_ROWS) }));
  const { name: _name, sql: _sql, ...definition } = spec;
  return { ...definition, rows: JSON.parse(reply.body ?? "[]") as unknown[] };
};
