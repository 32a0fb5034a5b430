import { ApiError, conflict, invalidField } from "../errors";
import type { TableIndex } from "./table-index";
import { isUniqueViolation } from "../db/unique-violation";
import { isReference } from "../schema/type-traits";

type DbError = { errno?: number; code?: string; message?: string };

/** Turns a constraint error of either engine into the contract's 409/422; anything else is rethrown. */
export const mapDbError = (err: unknown, index: TableIndex, action: "write" | "delete"): never => {
  const e = err as DbError;
  const message = e?.message ?? "";
  const duplicate = isUniqueViolation(err);
  if (duplicate) {
    const column = index.table.columns.find((c) => c.unique && (message.includes(`'${c.name}'`) || message.includes(`.${c.name}`) || message.endsWith(`.${c.name}'`)));
    const field = column?.name ?? "body";
    throw conflict(`Another record already has this ${column ? `"${column.name}"` : "unique value"}.`, [
      { field, code: "duplicate", message: `"${field}" must be unique` },
    ]);
  }
  const foreignKey = e?.errno === 1451 || e?.errno === 1452 || e?.code === "SQLITE_CONSTRAINT_FOREIGNKEY";
  if (foreignKey && (action === "delete" || e?.errno === 1451)) {
    throw conflict("Other records reference this record; delete or change them first.");
  }
  if (foreignKey) {
    const column = index.table.columns.find((c) => isReference(c) && message.includes(c.name)) ?? index.table.columns.find((c) => isReference(c));
    throw invalidField(column?.name ?? "body", "reference_not_found", "the referenced record does not exist");
  }
  if (e?.errno === 1406 || e?.errno === 1264 || e?.errno === 1366) {
    throw new ApiError("validation_failed", "A value does not fit its column.", {
      errors: [{ field: "body", code: "out_of_range", message: message.replace(/ at row \d+$/, "") }],
    });
  }
  throw err;
};
