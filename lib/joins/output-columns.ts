import type { ColumnDef, DatabaseSchema, JoinDef } from "../schema/types";
import { resolveJoinRef } from "./join-refs";

/** A join's output columns: each source column's definition under its output name. */
export const outputColumns = (schema: DatabaseSchema, join: Pick<JoinDef, "columns">): ColumnDef[] =>
  join.columns.map(({ column, as }) => ({ ...resolveJoinRef(schema, column)!.column, name: as }));

/** The joins whose every column resolves in this schema (always all of them for a stored schema). */
export const resolvableJoins = (schema: DatabaseSchema): JoinDef[] =>
  [...(schema.joins?.values() ?? [])].filter((j) => j.columns.every((c) => resolveJoinRef(schema, c.column)));
