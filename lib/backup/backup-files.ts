// The stored files that go with a backup, a restore and a clone: every file a row's file columns name, under
// the table's prefix in the file store (`<database id>/<table id>/<stored name>`). In the archive a file is
// `files/<table>/<stored name>`; a restore puts it under the new database's and table's ids, the name unchanged.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { App } from "../app-type";
import { fileColumnsOf, fileStoreOf, namesIn, tablePrefix } from "../api/files/file-scope";
import { STORED_NAME } from "../files/safe-name";
import type { TableDef } from "../schema/types";
import { FILES_PREFIX, filePart, type PartEntry } from "./archive-format";
import { archiveProblem } from "./tar";

type Scope = { databaseId: number; table: TableDef };

/** The stored names a batch of rows names (a table without file columns: none). */
export const fileNamesOf = (table: TableDef, rows: Record<string, unknown>[]): string[] => {
  const columns = fileColumnsOf(table);
  return columns.length ? rows.flatMap((row) => namesIn(columns, row)) : [];
};

/**
 * Copies one stored file into the backup's folder as its part, hashing it; undefined when the store no longer
 * has it (a row changed after the snapshot released it, or it was never stored).
 */
export const copyFileOut = async (app: App, { databaseId, table }: Scope, name: string, dir: string): Promise<PartEntry | undefined> => {
  const object = await fileStoreOf(app).get(`${tablePrefix(databaseId, table.id)}${name}`);
  if (!object) return undefined;
  const part = filePart(table.name, name);
  const file = path.join(dir, part);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const hash = createHash("sha256");
  let bytes = 0;
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  };
  await pipeline(object.body as Readable, counted, fs.createWriteStream(file));
  return { path: part, bytes, sha256: hash.digest("hex") };
};

/** The table and stored name an archive's `files/<table>/<name>` entry stands for, or a 422. */
export const fileEntryTarget = (entryName: string, tables: ReadonlyMap<string, TableDef>) => {
  const rest = entryName.slice(FILES_PREFIX.length);
  const cut = rest.lastIndexOf("/");
  const table = tables.get(rest.slice(0, cut));
  const name = rest.slice(cut + 1);
  if (cut < 0 || !table || !fileColumnsOf(table).length || !STORED_NAME.test(name)) {
    throw archiveProblem(`${entryName} names no file of a table with file columns.`);
  }
  return { table, name };
};

/** Stores an archive's file under the new database's key, checking its size and checksum against the manifest. */
export const restoreFile = async (app: App, { databaseId, table }: Scope, name: string, body: AsyncIterable<Buffer>, part: PartEntry, contentType: string) => {
  const stored = await fileStoreOf(app).put(`${tablePrefix(databaseId, table.id)}${name}`, Readable.from(body), { contentType });
  if (stored.sha256 !== part.sha256 || stored.size !== part.bytes) {
    throw archiveProblem(`${part.path} does not match its checksum in manifest.json (the archive is damaged).`);
  }
};

/** A clone's copy of one stored file; false when the source's store no longer has it. */
export const copyFileAcross = async (app: App, from: Scope, to: Scope, name: string, contentType: string): Promise<boolean> => {
  const store = fileStoreOf(app);
  const object = await store.get(`${tablePrefix(from.databaseId, from.table.id)}${name}`);
  if (!object) return false;
  await store.put(`${tablePrefix(to.databaseId, to.table.id)}${name}`, object.body, { contentType });
  return true;
};
