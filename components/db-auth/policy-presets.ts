import type { Column } from "../api/types";
import type { Policies } from "../api/use-db-auth";
import { holdsUserId, isReference } from "@/lib/schema/type-traits";

/**
 * Columns that hold the id of the row's user: references to the users table, and number columns filled with
 * auth.id. A title, a price or a reference to another table is never offered.
 */
export const ownerCandidates = (columns: Column[], usersTable: string) =>
  columns.filter((c) => (isReference(c) ? c.references === usersTable : holdsUserId(c) && c.default === "auth.id"));

/**
 * The column most likely to hold the row's owner: `id` on the users table; a column filled with auth.id, else
 * the first reference to the users table; none otherwise (a title or a price is never a sensible guess).
 */
export const pickOwnerColumn = (table: string, columns: Column[], usersTable: string) => {
  // On the users table itself, the row is the user.
  if (table === usersTable) return "id";
  const candidates = ownerCandidates(columns, usersTable);
  return (candidates.find((c) => c.default === "auth.id") ?? candidates[0])?.name ?? "";
};

/** Starter policies; `owner` is the column holding the user's id (e.g. owner_id with default auth.id). */
export const POLICY_PRESETS: { id: string; label: string; make: (owner: string) => Policies; needsOwner: boolean }[] = [
  {
    id: "owner-only",
    label: "Owner only",
    needsOwner: true,
    make: (o) => ({ select: `${o} = auth.id`, insert: `${o} = auth.id`, update: `${o} = auth.id`, delete: `${o} = auth.id` }),
  },
  {
    id: "public-read-owner-write",
    label: "Public read, owner write",
    needsOwner: true,
    make: (o) => ({ select: "true", insert: `${o} = auth.id`, update: `${o} = auth.id`, delete: `${o} = auth.id` }),
  },
  { id: "read-only", label: "Read-only for every user", needsOwner: false, make: () => ({ select: "true", insert: null, update: null, delete: null }) },
  { id: "closed", label: "Closed to users (secret keys only)", needsOwner: false, make: () => ({ select: null, insert: null, update: null, delete: null }) },
];
