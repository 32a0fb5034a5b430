import type { JoinDef } from "../schema/types";
import { refColumn, refTable } from "./join-refs";

const q = (name: string) => `\`${name}\``;
const col = (ref: string) => `${q(refTable(ref))}.${q(refColumn(ref))}`;

/** The SQL-mode text of a definition (after a rename the stored SQL is written anew from the structure). */
export const formatJoinSql = (join: Pick<JoinDef, "base" | "joins" | "columns">) =>
  [
    `SELECT ${join.columns.map((c) => `${col(c.column)} AS ${q(c.as)}`).join(",\n       ")}`,
    `FROM ${q(join.base)}`,
    ...join.joins.map((j) => `${j.type === "left" ? "LEFT" : "INNER"} JOIN ${q(j.table)} ON ${j.on.map(([a, b]) => `${col(a)} = ${col(b)}`).join(" AND ")}`),
  ].join("\n");
