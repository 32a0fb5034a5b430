import type { UserDb } from "../../db/engine";
import { syncIndexes } from "../../ddl/sync-indexes";
import type { DatabaseSchema } from "../../schema/types";
import { bumpMetaVersion, type Ctx } from "../context";
import { tableDefOf } from "../load-schema";
import { SCHEMA_DEPENDENTS } from "./dependents";
import type { MetaTrx, SchemaChange } from "./schema-change";

/** Changes after which a table's engine indexes may differ from its definition (names, columns, types). */
const RESHAPES = new Set<SchemaChange["kind"]>(["add-column", "update-column", "drop-column", "indexes"]);

/** Brings the changed table's indexes in line with its definition as this transaction wrote it. */
const syncChangedIndexes = async (trx: MetaTrx, udb: UserDb, physical: string, change: SchemaChange) => {
  if (!RESHAPES.has(change.kind) || !("table" in change) || !("id" in change.table)) return;
  const row = await trx.selectFrom("tables").select(["id", "name", "columns", "indexes"]).where("id", "=", change.table.id).executeTakeFirstOrThrow();
  await syncIndexes(udb, physical, tableDefOf(row));
};

export type SchemaApply<T> = {
  /** The change's own metadata rows (the dependents write theirs in `follow`). */
  metadata?: (trx: MetaTrx) => Promise<T>;
  /** DDL on the user database, given what `metadata` returned. */
  ddl?: (udb: UserDb, written: T) => Promise<void>;
};

/**
 * The one way a database's schema changes: in one metadata transaction, bump the versions, let every dependent
 * refuse or follow, write the change, run its DDL (then bring the table's indexes in line); publish the schema event after commit. DDL runs last because
 * MariaDB commits it on its own: a DDL failure still rolls the metadata back, a later failure could not.
 */
export const changeSchema = async <T = void>(ctx: Ctx, schema: DatabaseSchema, change: SchemaChange, apply: SchemaApply<T>): Promise<T> => {
  const { app } = ctx;
  const result = await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    for (const dependent of SCHEMA_DEPENDENTS) dependent.refuse?.(schema, change);
    for (const dependent of SCHEMA_DEPENDENTS) await dependent.follow?.(trx, schema, change);
    const written = (await apply.metadata?.(trx)) as T;
    if (apply.ddl || RESHAPES.has(change.kind)) {
      try {
        const udb = app.engine.userDb(schema.physical);
        await apply.ddl?.(udb, written);
        await syncChangedIndexes(trx, udb, schema.physical, change);
      } finally {
        app.engine.clearStatements(schema.physical);
      }
    }
    return written;
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
  return result;
};
