import type { Policies } from "../api/use-db-auth";

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
