// The SQLite side of `searchable` columns: one FTS5 trigram table per column (lib/schema/search.ts names it),
// filled from the rows when it is made and kept in step by three triggers on the user table, so every write
// (single, bulk, CSV import, AI apply, the SQL console) updates it inside its own transaction.
import { sql } from "kysely";
import type { UserDb } from "../db/engine";
import { searchPrefix, searchTableName } from "../schema/search";
import type { TableDef } from "../schema/types";

type Executor = UserDb["db"];

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `case_sensitive 0`: `_ilike` needs folded trigrams; `_like` rechecks its candidates exactly. */
const ftsSql = (fts: string) =>
  `CREATE VIRTUAL TABLE ${quote(fts)} USING fts5(v, tokenize = 'trigram case_sensitive 0', content = '', contentless_delete = 1)`;

/** The triggers as SQLite stores their text, so a stored one can be compared with what it should be. */
const triggerSqls = (fts: string, table: string, column: string) => {
  const [f, t, c] = [quote(fts), quote(table), quote(column)];
  const add = `INSERT INTO ${f} (rowid, v) VALUES (new."id", new.${c});`;
  const remove = `DELETE FROM ${f} WHERE rowid = old."id";`;
  return new Map([
    [`${fts}ins`, `CREATE TRIGGER ${quote(`${fts}ins`)} AFTER INSERT ON ${t} BEGIN ${add} END`],
    [`${fts}del`, `CREATE TRIGGER ${quote(`${fts}del`)} AFTER DELETE ON ${t} BEGIN ${remove} END`],
    [`${fts}upd`, `CREATE TRIGGER ${quote(`${fts}upd`)} AFTER UPDATE OF ${c} ON ${t} BEGIN ${remove} ${add} END`],
  ]);
};

type Existing = { tables: Set<string>; triggers: Map<string, string> };

/** The FTS tables (not their shadow tables) and triggers this module made for the table with this id. */
const existingObjects = async (db: Executor, tableId: number): Promise<Existing> => {
  const prefix = searchPrefix(tableId);
  const { rows } = await sql<{ type: string; name: string; sql: string }>`SELECT type, name, sql FROM sqlite_master
    WHERE type IN ('table', 'trigger') AND substr(name, 1, ${prefix.length}) = ${prefix}`.execute(db);
  return {
    tables: new Set(rows.filter((r) => r.type === "table" && r.name.endsWith("_")).map((r) => r.name)),
    triggers: new Map(rows.filter((r) => r.type === "trigger").map((r) => [r.name, r.sql])),
  };
};

const dropSearch = async (db: Executor, fts: string) => {
  for (const kind of ["ins", "del", "upd"]) await sql`DROP TRIGGER IF EXISTS ${sql.id(`${fts}${kind}`)}`.execute(db);
  await sql`DROP TABLE IF EXISTS ${sql.id(fts)}`.execute(db);
};

/** Made anew from the rows: the only safe start when its triggers were missing for a while (a rebuild dropped them). */
const buildSearch = async (db: Executor, fts: string, table: string, column: string) => {
  await dropSearch(db, fts);
  await sql.raw(ftsSql(fts)).execute(db);
  await sql`INSERT INTO ${sql.id(fts)} (rowid, v) SELECT ${sql.id("id")}, ${sql.id(column)} FROM ${sql.id(table)}`.execute(db);
  for (const text of triggerSqls(fts, table, column).values()) await sql.raw(text).execute(db);
};

const inStep = (existing: Existing, fts: string, table: string, column: string) =>
  existing.tables.has(fts) && [...triggerSqls(fts, table, column)].every(([name, text]) => existing.triggers.get(name) === text);

/**
 * Makes the search indexes of the table with this id those its definition asks for (`table` undefined: it was
 * dropped), in one transaction: an index whose triggers are all in place is kept, any other is built from the
 * rows; an index no column asks for is dropped. No-op on MariaDB, which scans.
 */
export const syncSearch = async (udb: UserDb, tableId: number, table: TableDef | undefined) => {
  if (udb.engine !== "sqlite") return;
  await udb.db.transaction().execute(async (trx) => {
    const existing = await existingObjects(trx, tableId);
    const wanted = new Set<string>();
    for (const column of table?.columns.filter((c) => c.searchable) ?? []) {
      const fts = searchTableName(tableId, column.name);
      wanted.add(fts);
      if (!inStep(existing, fts, table!.name, column.name)) await buildSearch(trx, fts, table!.name, column.name);
    }
    for (const fts of existing.tables) if (!wanted.has(fts)) await dropSearch(trx, fts);
  });
};

/**
 * SQLite refuses to drop a column a trigger names, and a table rebuild loses the triggers: before DDL that alters
 * or drops a column, the table's search triggers go (syncSearch then builds its indexes again from the rows).
 */
export const releaseSearchTriggers = async (udb: UserDb, tableId: number) => {
  if (udb.engine !== "sqlite") return;
  const { triggers } = await existingObjects(udb.db, tableId);
  for (const name of triggers.keys()) await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(udb.db);
};
