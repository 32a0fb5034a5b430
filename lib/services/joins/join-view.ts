import type { DatabaseSchema, JoinDef } from "../../schema/types";

/** A join as the management API shows it: the structured form, its SQL when made in SQL mode, its data path. */
export const joinView = (schema: DatabaseSchema, j: JoinDef) => ({
  name: j.name,
  base: j.base,
  joins: j.joins,
  columns: j.columns,
  ...(j.sql ? { sql: j.sql } : {}),
  path: `/v1/${schema.instance}/${j.name}`,
});
