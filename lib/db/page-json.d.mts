import type Database from "better-sqlite3";
import type { ColumnType } from "../schema/types";

/** The columns a read answers with, in order: [name, column type] (its values become JSON through TO_JSON). */
export type OutputColumns = [string, ColumnType][];

/** A page as JSON text; `last` (the last record's row, `_k…` keys included) only when another page follows. */
export type PageJson = { json: string; more: boolean; last?: Record<string, unknown> };

export declare const readPageJson: (stmt: Database.Statement, params: readonly unknown[], output: OutputColumns, limit: number) => PageJson;
