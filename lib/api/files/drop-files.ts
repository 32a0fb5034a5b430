// Files that go with a schema change, deleted after it commits: a dropped file column's files, a dropped table's,
// a deleted database's. A failure to delete leaves orphans that the sweeper takes later; nothing reachable is lost.
import type { App } from "../../app-type";
import type { UserDb } from "../../db/engine";
import { readColumn } from "../../ddl/column-values";
import { filesOf } from "../../schema/file-value";
import { isFile } from "../../schema/type-traits";
import type { ColumnDef, DatabaseSchema, TableDef } from "../../schema/types";
import { databasePrefix, deleteQuietly, fileStoreOf, tablePrefix } from "./file-scope";

/** The keys a file column's rows name now (read before the column is dropped). */
export const columnFileKeys = async (udb: UserDb, schema: DatabaseSchema, table: TableDef, column: ColumnDef): Promise<string[]> => {
  if (!isFile(column)) return [];
  const rows = await readColumn(udb, table.name, column.name);
  return rows.flatMap((r) => filesOf(r.raw).map((f) => `${tablePrefix(schema.id, table.id)}${f.name}`));
};

export const deleteKeys = (app: App, keys: string[]) => deleteQuietly(fileStoreOf(app), keys);

const deletePrefix = async (app: App, prefix: string) => {
  const store = fileStoreOf(app);
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  await deleteQuietly(store, keys);
};

/** Every object of a dropped table (its files and anything made from them). */
export const deleteTableFiles = (app: App, schema: Pick<DatabaseSchema, "id">, table: Pick<TableDef, "id">) => deletePrefix(app, tablePrefix(schema.id, table.id));

/** Every object of a deleted database. */
export const deleteDatabaseFiles = (app: App, databaseId: number) => deletePrefix(app, databasePrefix(databaseId));
