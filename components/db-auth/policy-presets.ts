import type { Column } from "../api/types";
import type { Policies } from "../api/use-db-auth";
import { holdsUserId, isReference, isTextual } from "@/lib/schema/type-traits";

/** Columns that can hold a user's id. */
export const ownerCandidates = (columns: Column[]) => columns.filter(holdsUserId);

/**
 * The column most likely to hold the row's owner: `id` on the users table; a number column filled with
 * auth.id, else a reference to the users table, else one named like an owner; none otherwise (a title or a
 * price is never a sensible guess).
 */
export const pickOwnerColumn = (table: string, columns: Column[], usersTable: string) => {
  // On the users table itself, the row is the user.
  if (table === usersTable) return "id";
  const candidates = ownerCandidates(columns).filter((c) => !isTextual(c));
  return (
    candidates.find((c) => c.default === "auth.id") ??
    candidates.find((c) => isReference(c) && c.references === usersTable) ??
    candidates.find((c) => /owner|user|author|created_by/.test(c.name))
  )?.name ?? "";
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
