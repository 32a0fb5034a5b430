// Reference columns name the table they point at: a rename retargets them, a drop is refused while another
// table still points at it (a table's references to itself go with it).
import { conflict } from "../../errors";
import type { ColumnDef } from "../../schema/types";
import type { SchemaDependent } from "./schema-change";

export const retargetColumns = (columns: ColumnDef[], from: string, to: string) =>
  columns.map((c) => (c.references === from ? { ...c, references: to } : c));

export const referencesDependent: SchemaDependent = {
  name: "references",
  refuse: (schema, change) => {
    if (change.kind !== "drop-table") return;
    for (const other of schema.tables.values()) {
      const column = other.id === change.table.id ? undefined : other.columns.find((c) => c.references === change.table.name);
      if (column) {
        throw conflict(`Table "${change.table.name}" is referenced by column "${other.name}.${column.name}"; drop or change that column first.`);
      }
    }
  },
  follow: async (trx, schema, change) => {
    if (change.kind !== "rename-table") return;
    for (const other of schema.tables.values()) {
      if (!other.columns.some((c) => c.references === change.table.name)) continue;
      const columns = JSON.stringify(retargetColumns(other.columns, change.table.name, change.to));
      await trx.updateTable("tables").set({ columns }).where("id", "=", other.id).execute();
    }
  },
};
