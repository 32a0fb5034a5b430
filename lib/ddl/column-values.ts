import { type Kysely, sql } from "kysely";
import type { UserDb } from "../db/engine";

export type StoredValue = { id: number; raw: unknown };

const CHUNK = 500;

const chunks = <T>(items: T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** Every row's id and raw value of one column, in id order. */
export const readColumn = async (udb: UserDb, table: string, column: string): Promise<StoredValue[]> => {
  const { rows } = await sql<{ id: number | string; raw: unknown }>`
    SELECT ${sql.id("id")} AS ${sql.id("id")}, ${sql.id(column)} AS ${sql.id("raw")}
    FROM ${udb.table(table)} ORDER BY ${sql.id("id")}`.execute(udb.db);
  return rows.map((r) => ({ id: Number(r.id), raw: r.raw }));
};

export const countRows = async (udb: UserDb, table: string): Promise<number> => {
  const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS ${sql.id("n")} FROM ${udb.table(table)}`.execute(udb.db);
  return Number(rows[0]?.n ?? 0);
};

/** The subset of `ids` that are ids of rows in `table`. */
export const existingIds = async (udb: UserDb, table: string, ids: number[]): Promise<Set<number>> => {
  const found = new Set<number>();
  for (const part of chunks([...new Set(ids)])) {
    const { rows } = await sql<{ id: number | string }>`
      SELECT ${sql.id("id")} FROM ${udb.table(table)} WHERE ${sql.id("id")} IN (${sql.join(part)})`.execute(udb.db);
    for (const r of rows) found.add(Number(r.id));
  }
  return found;
};

/** Sets one column row by row (`[id, value]` pairs), a few hundred rows per statement. */
export const writeColumn = async (db: Kysely<any>, udb: UserDb, table: string, column: string, values: [number, unknown][]) => {
  for (const part of chunks(values)) {
    const cases = sql.join(
      part.map(([id, value]) => sql`WHEN ${id} THEN ${value}`),
      sql` `,
    );
    const ids = sql.join(part.map(([id]) => id));
    await sql`UPDATE ${udb.table(table)} SET ${sql.id(column)} = CASE ${sql.id("id")} ${cases} END
      WHERE ${sql.id("id")} IN (${ids})`.execute(db);
  }
};

/** "ids 4, 9, 12" for the first five blocking rows. */
export const describeIds = (ids: number[]) => `ids ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`;

export const rowCount = (n: number) => (n === 1 ? "1 row" : `${n} rows`);
