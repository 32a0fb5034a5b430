// POST …/clone: a new database with the source's definition and, with `data`, its rows from one snapshot
// (copied straight across, no archive in between) and the stored files they name. A failed clone deletes what
// it made, its files included.
import { recountStorage } from "../api/files/storage-usage";
import { isFile } from "../schema/type-traits";
import type { DbCtx } from "../meta/context";
import { recordColumns } from "../schema/types";
import { deleteDatabase } from "../services/databases/delete-database";
import { databaseCtx } from "../services/databases/database-ctx";
import { getDatabase } from "../services/databases/get-database";
import { filesOf } from "../schema/file-value";
import { copyFileAcross, fileNamesOf } from "./backup-files";
import { claimName } from "./claim-name";
import { createFromDefinition, parseDefinition } from "./create-from-definition";
import { openSnapshot } from "./open-snapshot";
import { readDefinition } from "./read-definition";
import { openRowSink } from "./row-sink";
import { decodeValue, encodeValue } from "./row-codec";

export type CloneInput = { instance: string; body: { name: string; data?: boolean } };

export const cloneDatabase = async (ctx: DbCtx, { body }: CloneInput) => {
  const { app } = ctx;
  const source = ctx.database;
  const claim = await claimName(ctx, body.name);
  let instance: string | undefined;
  try {
    const definition = await readDefinition(app, source);
    const made = await createFromDefinition({ ...ctx, database: undefined }, body.name, parseDefinition(definition), async (i) => {
      instance = i;
      await claim.attach(i);
    });
    if (body.data !== false) {
      const snapshot = await openSnapshot(app, source.schema.physical);
      const sink = await openRowSink(app, made.database.schema.physical);
      try {
        for (const { name } of definition.tables) {
          const table = source.schema.tables.get(name)!;
          const from = { databaseId: source.schema.id, table };
          const to = { databaseId: made.database.schema.id, table: made.database.schema.tables.get(name)! };
          const columns = recordColumns(table);
          for await (const batch of snapshot.batches(name, columns.map((c) => c.name))) {
            // Through the archive's codec, so a clone's values are exactly a restored backup's.
            const rows = batch.map((row) => columns.map((c) => (decodeValue(app.engine.kind, c, encodeValue(c, row[c.name])) as { value: unknown }).value));
            await sink.insert(name, columns.map((c) => c.name), rows);
            const types = new Map(batch.flatMap((row) => columns.filter(isFile).flatMap((c) => filesOf(row[c.name]).map((f) => [f.name, f.type] as const))));
            for (const stored of fileNamesOf(table, batch)) await copyFileAcross(app, from, to, stored, types.get(stored) ?? "application/octet-stream");
          }
        }
      } finally {
        await sink.close();
        await snapshot.close();
      }
    }
    const db = await databaseCtx(ctx, made.database.schema.instance);
    await recountStorage(app, db.database.schema.instance);
    return getDatabase(db, { instance: db.database.schema.instance });
  } catch (err) {
    if (instance) {
      const made = await databaseCtx(ctx, instance).catch(() => undefined);
      if (made) await deleteDatabase(made, { instance });
    }
    throw err;
  } finally {
    await claim.release();
  }
};
