import { bumpMetaVersion, type Ctx, nowIso } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { joinView } from "./join-view";
import { checkNameFree, readJoinInput } from "./read-join-input";

/** POST .../joins with `{name, sql}` or `{name, base, joins, columns}` → 201 with the structured form. */
export type CreateJoinInput = { instance: string; body: unknown };

export const createJoin = async (ctx: Ctx, { instance, body: input }: CreateJoinInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const spec = readJoinInput(input, schema);
  checkNameFree(schema, spec.name);
  const { app } = ctx;
  let id = 0;
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    const { name, sql, ...definition } = spec;
    const row = await trx
      .insertInto("joins")
      .values({ database_id: schema.id, name, definition: JSON.stringify(definition), sql: sql ?? null, created_at: nowIso() })
      .executeTakeFirstOrThrow();
    id = Number(row.insertId);
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
  return joinView(schema, { id, ...spec });
};
