// A table's indexes over several columns name its columns: a rename follows into them, a drop takes the
// indexes containing the column with it, and a type change that the index could not hold is refused.
import { conflict } from "../../errors";
import { dropIndexColumn, indexProblem, renameIndexColumn } from "../../schema/indexes";
import { recordColumns } from "../../schema/types";
import { columnRename, type SchemaChange, type SchemaDependent } from "./schema-change";
import { storedIndexes } from "../serialize";

/** The table's indexes after a column rename or drop (nothing to write for other changes). */
const indexesAfter = (change: SchemaChange) => {
  const rename = columnRename(change);
  if (rename?.table.indexes?.length) return { table: rename.table, indexes: renameIndexColumn(rename.table.indexes, rename.from, rename.to) };
  if (change.kind === "drop-column" && change.table.indexes?.length) {
    return { table: change.table, indexes: dropIndexColumn(change.table.indexes, change.column.name) };
  }
  return undefined;
};

export const indexesDependent: SchemaDependent = {
  name: "indexes",
  refuse: (_schema, change) => {
    if (change.kind !== "update-column") return;
    const columns = recordColumns(change.table).map((c) => (c.name === change.from.name ? change.to : c));
    for (const index of change.table.indexes ?? []) {
      if (!index.columns.includes(change.from.name)) continue;
      const problem = indexProblem(index.columns.map((name) => columns.find((c) => c.name === (name === change.from.name ? change.to.name : name))!));
      if (problem) throw conflict(`Column "${change.from.name}" is in index "${index.name}", and ${problem.message}; drop or change the index first.`);
    }
  },
  follow: async (trx, _schema, change) => {
    const next = indexesAfter(change);
    if (next) await trx.updateTable("tables").set({ indexes: storedIndexes(next.indexes) }).where("id", "=", next.table.id).execute();
  },
};
