// POST /{table}/{id}/_restore {"rev"}: writes a revision's record (a delete's: the row as it was deleted) back through the write kernel (hooks, policies,
// references and events apply, and the write is a new revision). A row that exists is updated with the revision's
// values; a deleted row comes back as a create with its id and first creation time. Columns dropped since are
// left out; a value that can no longer be written (an option removed, a reference to a deleted row) is the
// kernel's 422, and nothing is written.
import { invalidField, notFound } from "../../errors";
import { predicatesFor } from "../../rls/access";
import { toStoredDatetime } from "../../schema/column-types";
import type { DataRequest } from "../data-request";
import { findRecord } from "../read-records";
import { runWrite } from "../write/run-write";
import { readRevision } from "./read-revisions";

type Record_ = Record<string, unknown>;

const revOf = (body: unknown): number => {
  const rev = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record_).rev : undefined;
  if (!Number.isSafeInteger(rev) || (rev as number) < 1) throw invalidField("rev", "invalid", "send {\"rev\": n}, a rev from this record's _history");
  const extra = Object.keys(body as Record_).find((k) => k !== "rev");
  if (extra) throw invalidField(extra, "unknown_field", `"${extra}" is not a field of a restore; send only rev`);
  return rev as number;
};

/** The revision's values the table can still take: its own columns now, none of the automatic ones. */
const writableValues = (r: DataRequest, record: Record_): Record_ => {
  const values: Record_ = {};
  for (const [name, value] of Object.entries(record)) {
    const column = r.index.byName.get(name);
    if (column && !column.system) values[name] = value;
  }
  return values;
};

/** Restores revision `rev` of the row; `shows` is a JWT user's select policy on records (keys: undefined). */
export const restoreRevision = async (r: DataRequest, shows: ((record: Record_) => boolean) | undefined): Promise<Record_> => {
  const rev = revOf(r.body);
  const id = r.id!;
  const revision = await readRevision(r.udb, r.index.table.id, id, rev);
  const missing = () => invalidField("rev", "not_found", `No revision ${rev} of record ${id} in ${r.index.table.name}.`);
  if (!revision || (shows && !shows(revision.record))) throw missing();
  const values = writableValues(r, revision.record);
  const current = await findRecord(r.udb, r.index, id, predicatesFor(r.access, r.index.table.name, "select"));
  if (current) return (await runWrite({ ...r, action: "update", body: values }))[0];
  // A JWT user cannot tell a deleted row from a hidden one, and may not bring either back.
  if (shows) throw notFound(`No record with id ${id} in ${r.index.table.name}.`);
  const createdAt = typeof revision.record.created_at === "string" ? toStoredDatetime(new Date(revision.record.created_at)) : toStoredDatetime(new Date());
  return (await runWrite({ ...r, action: "create", body: values, revive: { id, createdAt } }))[0];
};
