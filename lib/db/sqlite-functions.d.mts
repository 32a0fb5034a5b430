import type Database from "better-sqlite3";

export declare const addSqlFunctions: (db: Database.Database) => void;
