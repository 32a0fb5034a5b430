// Moving CSV through the data API: export walks every page of the current query; import sends the rows with
// the bulk POST (one transaction, so validation, policies and pre hooks apply as to any client).
import { ApiRequestError, errorMessage } from "../api/api-error";
import type { DataRecord, Table } from "../api/types";
import { buildQueryString, type RecordsQuery } from "./build-query";
import { type CsvColumn, type RowProblem, toCsv } from "./csv";
import { isReference, isSecret } from "@/lib/schema/type-traits";

export const MAX_BULK = 1000;

/** Columns an export carries: the automatic ones and every column but passwords (hashes do not import). */
export const exportColumns = (table: Table): CsvColumn[] => [
  { name: "id", type: "bigint" },
  ...table.columns.filter((c) => !isSecret(c)),
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
];

/** Every row of the query (filters and sort as shown, all pages, 1000 at a time) as CSV text. */
export const exportCsv = async (table: Table, query: RecordsQuery, read: (query: string) => Promise<DataRecord[]>) => {
  const rows: DataRecord[] = [];
  for (let offset = 0; ; offset += MAX_BULK) {
    const page = await read(buildQueryString({ ...query, limit: MAX_BULK, offset }));
    rows.push(...page);
    if (page.length < MAX_BULK) break;
  }
  return { csv: toCsv(exportColumns(table), rows), count: rows.length };
};

export type ImportMode = "all" | "valid";
export type ImportResult = { imported: number; problems: RowProblem[] };
type Row = { line: number; body: Record<string, unknown> };
export type PostRows = (bodies: Record<string, unknown>[]) => Promise<unknown>;

/** The API's problems with a bulk body (`[3].name`) as CSV lines of the rows sent. */
const problemsOf = (err: unknown, rows: Row[]): RowProblem[] => {
  if (!(err instanceof ApiRequestError) || err.errors.length === 0) return [{ line: 0, field: "", message: errorMessage(err) }];
  return err.errors.map((e) => {
    const found = /^\[(\d+)\]\.?(.*)$/.exec(e.field);
    return found ? { line: rows[Number(found[1])]?.line ?? 0, field: found[2], message: e.message } : { line: 0, field: e.field, message: e.message };
  });
};

/** One POST per row, to tell which rows a conflict (409, not tied to a row by the API) belongs to. */
const postOneByOne = async (rows: Row[], post: PostRows): Promise<ImportResult> => {
  const result: ImportResult = { imported: 0, problems: [] };
  for (const row of rows) {
    try {
      await post([row.body]);
      result.imported++;
    } catch (err) {
      result.problems.push(...problemsOf(err, [row]).map((p) => ({ ...p, line: row.line })));
    }
  }
  return result;
};

/** Valid rows only: rows the API names are set aside and the rest sent again, until a POST succeeds. */
const importValid = async (rows: Row[], post: PostRows): Promise<ImportResult> => {
  const result: ImportResult = { imported: 0, problems: [] };
  for (let start = 0; start < rows.length; start += MAX_BULK) {
    let batch = rows.slice(start, start + MAX_BULK);
    while (batch.length) {
      try {
        await post(batch.map((r) => r.body));
        result.imported += batch.length;
        break;
      } catch (err) {
        const problems = problemsOf(err, batch);
        const bad = new Set(problems.map((p) => p.line).filter((l) => l > 0));
        if (bad.size === 0) {
          const one = await postOneByOne(batch, post);
          result.imported += one.imported;
          result.problems.push(...one.problems);
          break;
        }
        result.problems.push(...problems.filter((p) => p.line > 0));
        batch = batch.filter((r) => !bad.has(r.line));
      }
    }
  }
  return result;
};

/**
 * All or nothing: one bulk POST (one transaction); any problem (found here or by the API) imports nothing.
 * Valid rows only: the rows with problems are reported and the others imported.
 */
export const importRows = async (rows: Row[], found: RowProblem[], mode: ImportMode, post: PostRows): Promise<ImportResult> => {
  if (mode === "all") {
    if (found.length) return { imported: 0, problems: found };
    if (rows.length > MAX_BULK) return { imported: 0, problems: [{ line: 0, field: "", message: `all or nothing imports up to ${MAX_BULK} rows in one transaction; this file has ${rows.length}` }] };
    if (rows.length === 0) return { imported: 0, problems: [] };
    try {
      await post(rows.map((r) => r.body));
      return { imported: rows.length, problems: [] };
    } catch (err) {
      return { imported: 0, problems: problemsOf(err, rows) };
    }
  }
  const bad = new Set(found.map((p) => p.line));
  const result = await importValid(rows.filter((r) => !bad.has(r.line)), post);
  return { imported: result.imported, problems: [...found, ...result.problems].sort((a, b) => a.line - b.line) };
};

/**
 * Ids in reference columns that name no row of their table, found with one `id_in` read per 100 ids before
 * anything is sent: the API stops at a file's first kind of problem, so without this all-or-nothing would
 * report fewer problems than valid-rows-only does for the same file.
 */
export const referenceProblems = async (rows: Row[], table: Table, read: (table: string, query: string) => Promise<DataRecord[]>): Promise<RowProblem[]> => {
  const problems: RowProblem[] = [];
  for (const column of table.columns.filter((c) => isReference(c) && c.references)) {
    const ids = [...new Set(rows.map((r) => r.body[column.name]).filter((v): v is number => typeof v === "number"))];
    const found = new Set<number>();
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      for (const row of await read(column.references!, `id_in=${chunk.join(",")}&_limit=100`)) found.add(row.id);
    }
    for (const r of rows) {
      const v = r.body[column.name];
      if (typeof v === "number" && !found.has(v)) problems.push({ line: r.line, field: column.name, message: `no row ${v} in ${column.references}` });
    }
  }
  return problems;
};
