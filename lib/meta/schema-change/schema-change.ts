import type { Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import type { ColumnDef, DatabaseSchema, TableDef } from "../../schema/types";
import type { LoadedDatabase } from "../schema-cache";

export type MetaTrx = Transaction<MetaDb>;

/** What a schema change does, as the dependents see it; `schema` (beside it) is the database before the change. */
export type SchemaChange =
  | { kind: "create-table"; table: { name: string; columns: ColumnDef[] } }
  | { kind: "rename-table"; table: TableDef; to: string }
  | { kind: "drop-table"; table: TableDef }
  /** One or several columns added together. */
  | { kind: "add-column"; table: TableDef; columns: ColumnDef[] }
  /** A rename when `from.name !== to.name`; type and constraint changes otherwise (or both). */
  | { kind: "update-column"; table: TableDef; from: ColumnDef; to: ColumnDef }
  | { kind: "drop-column"; table: TableDef; column: ColumnDef }
  /** An index over several columns added or removed (`table` as it was before). */
  | { kind: "indexes"; table: TableDef }
  | { kind: "joins"; join: string }
  | { kind: "policies"; table: TableDef }
  | { kind: "hooks"; table: TableDef }
  /** Record history turned on or off (`table` as it was before). */
  | { kind: "history"; table: TableDef }
  | { kind: "auth"; rotate: boolean }
  | { kind: "rename-database"; name: string };

/** The hooks and auth settings as stored when the change runs: read inside its transaction, not from a cache. */
export type BesideSchema = Pick<LoadedDatabase, "hooks" | "auth">;

/**
 * Something stored beside the schema that names its tables or columns (joins, policies, auth settings, reference
 * columns). Registered once in ./dependents.ts; changeSchema asks every one about every change.
 */
export type SchemaDependent = {
  name: string;
  /** Throws a 409 naming the dependent when the change would leave it broken. */
  refuse?: (schema: DatabaseSchema, change: SchemaChange, beside: BesideSchema) => void;
  /** Rewrites the dependent's stored definition to follow the change (a rename), inside the change's transaction. */
  follow?: (trx: MetaTrx, schema: DatabaseSchema, change: SchemaChange, beside: BesideSchema) => Promise<void>;
};

/** The column rename a change makes, if any. */
export const columnRename = (change: SchemaChange) =>
  change.kind === "update-column" && change.from.name !== change.to.name
    ? { table: change.table, from: change.from.name, to: change.to.name }
    : undefined;
