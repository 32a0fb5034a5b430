// Where a table's files live in the install's file store, and how files follow their rows: every stored object
// of a table is under `{database id}/{table id}/`, named by its stored name (ids, not names, so renames move
// nothing). After a write commits, the files its rows no longer name are deleted; a crash in between leaves
// orphans the sweeper (sweep-orphans.ts) removes.
import type { App } from "../../app-type";
import { openFileStore, type FileStore } from "../../files/store";
import { deleteFilesAndThumbs } from "../../files/thumbs";
import type { LoadedDatabase } from "../../meta/schema-cache";
import { filesOf } from "../../schema/file-value";
import { isFile } from "../../schema/type-traits";
import type { ColumnDef, TableDef } from "../../schema/types";
import { logger } from "../../ops/logger";

/**
 * A table's place in the store, the database's instance (for the files' urls in change events) and id (its file
 * counter), and the quota reservation of the upload a write attaches, which its commit takes.
 */
export type FileScope = { store: FileStore; prefix: string; instance: string; databaseId: number; reservation?: number };

const stores = new WeakMap<App, FileStore>();

/** The install's file store, opened once per app. */
export const fileStoreOf = (app: App): FileStore => {
  let store = stores.get(app);
  if (!store) stores.set(app, (store = openFileStore(app.config as Parameters<typeof openFileStore>[0])));
  return store;
};

export const databasePrefix = (databaseId: number) => `${databaseId}/`;
export const tablePrefix = (databaseId: number, tableId: number) => `${databaseId}/${tableId}/`;

export const fileColumnsOf = (table: TableDef): ColumnDef[] => table.columns.filter(isFile);

/** The table's file scope, or undefined when it has no file column (no store is touched then). */
export const fileScopeOf = (app: App, database: Pick<LoadedDatabase, "schema">, table: TableDef): FileScope | undefined =>
  fileColumnsOf(table).length
    ? { store: fileStoreOf(app), prefix: tablePrefix(database.schema.id, table.id), instance: database.schema.instance, databaseId: database.schema.id }
    : undefined;

export const fileKey = (scope: FileScope, name: string) => `${scope.prefix}${name}`;

/** Every stored name a record's file columns hold. */
export const namesIn = (columns: ColumnDef[], record: Record<string, unknown> | undefined): string[] =>
  record ? columns.flatMap((c) => filesOf(record[c.name]).map((f) => f.name)) : [];

/** Deletes files with their thumbs, logging a failure (the sweeper takes what is left). */
export const deleteQuietly = async (store: FileStore, keys: string[]) => {
  if (!keys.length) return;
  try {
    await deleteFilesAndThumbs(store, keys);
  } catch (err) {
    logger.warn({ err, keys: keys.length }, "file delete failed; the sweeper will remove them");
  }
};

type Changed = { records: Record<string, unknown>[]; old: Record<string, unknown>[] };

/** After COMMIT: the files the old rows named and the rows as written no longer do. */
export const releaseReplacedFiles = async (scope: FileScope | undefined, table: TableDef, changes: Changed[]) => {
  if (!scope) return;
  const columns = fileColumnsOf(table);
  const kept = new Set(changes.flatMap((c) => c.records.flatMap((r) => namesIn(columns, r))));
  const gone = changes.flatMap((c) => c.old.flatMap((r) => namesIn(columns, r))).filter((name) => !kept.has(name));
  await deleteQuietly(scope.store, gone.map((name) => fileKey(scope, name)));
};
