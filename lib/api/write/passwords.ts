// Password values are hashed before BEGIN: bcrypt takes tens of milliseconds and must not hold a row lock or
// SQLite's write lock. The transaction then only swaps each validated plain value for its hash.
import bcrypt from "bcrypt";
import type { App } from "../../app-type";
import { TYPE_SPECS } from "../../schema/column-types";
import type { ParsedWrite } from "../parse-body";
import type { TableIndex } from "../table-index";
import { isSecret } from "../../schema/type-traits";

const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** Per body: password column → the bcrypt hash of the value the body sends. */
export type Hashes = Map<string, string>[];

/**
 * Hashes each body's valid password values. On update a value that is already a bcrypt hash is left alone:
 * sending back the stored hash keeps it (GET → edit → PUT), which only the locked stored row can tell.
 */
export const hashPasswords = async (app: App, index: TableIndex, bodies: unknown[], update: boolean): Promise<Hashes> => {
  const columns = index.table.columns.filter((c) => isSecret(c));
  const hashes: Hashes = [];
  for (const body of bodies) {
    const hashed = new Map<string, string>();
    hashes.push(hashed);
    if (!columns.length || typeof body !== "object" || body === null) continue;
    for (const column of columns) {
      const value = (body as Record<string, unknown>)[column.name];
      if (typeof value !== "string" || (update && BCRYPT.test(value)) || !TYPE_SPECS.password.fromJson(value, column).ok) continue;
      hashed.set(column.name, await bcrypt.hash(value, app.config.bcryptCost));
    }
  }
  return hashes;
};

/** Puts the hashes into a validated write; a value not hashed before BEGIN (a hash-shaped new password) is hashed here. */
export const useHashes = async (app: App, write: ParsedWrite, hashed: Map<string, string> | undefined) => {
  for (const name of write.passwords) write.values[name] = hashed?.get(name) ?? (await bcrypt.hash(String(write.values[name]), app.config.bcryptCost));
};
