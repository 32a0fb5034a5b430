import type Database from "better-sqlite3";
import type { ColumnType } from "../schema/types";

/** The output columns of a page: [name, column type], in order. */
export type PageOutput = [string, ColumnType][];

/** A page as JSON text; `last` (the last record's row, `_k…` keys included) only when another page follows. */
export type PageJson = { json: string; more: boolean; last?: Record<string, unknown> };

export declare const readPageJson: (stmt: Database.Statement, params: readonly unknown[], output: PageOutput, limit: number) => PageJson;
