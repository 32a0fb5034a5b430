"use client";
import { useState } from "react";
import { errorMessage } from "../api/api-error";
import type { DataRecord } from "../api/types";
import { ConfirmDialog } from "../ui/confirm-dialog";

type Props = {
  table: string;
  /** The records to delete; none = closed. */
  records: DataRecord[];
  remove: (id: number) => Promise<unknown>;
  onClose: () => void;
  onDeleted: (ids: number[]) => void;
};

/** Asks first, then deletes each record (DELETE per id); the ones the API refuses (409: still referenced) are listed. */
export const BulkDelete = ({ table, records, remove, onClose, onDeleted }: Props) => {
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState<string[]>([]);
  const one = records.length === 1;
  const close = () => {
    setFailed([]);
    onClose();
  };
  const run = async () => {
    setPending(true);
    const done: number[] = [];
    const problems: string[] = [];
    for (const r of records) {
      try {
        await remove(r.id);
        done.push(r.id);
      } catch (err) {
        problems.push(`#${r.id}: ${errorMessage(err)}`);
      }
    }
    setPending(false);
    onDeleted(done);
    if (problems.length) setFailed(problems);
    else close();
  };
  return (
    <ConfirmDialog
      open={records.length > 0}
      onClose={close}
      title={one ? `Delete ${table} #${records[0].id}?` : `Delete ${records.length} records of ${table}?`}
      consequences={
        failed.length ? (
          <div role="alert" className="space-y-1 text-red-800">
            <p>{failed.length} could not be deleted (the others are gone):</p>
            <ul className="list-disc pl-5">
              {failed.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p>
            {one ? "The record is" : `Records ${records.map((r) => `#${r.id}`).join(", ")} are`} removed for good. A record other records still reference is
            refused (409) and kept.
          </p>
        )
      }
      confirmLabel={one ? "Delete record" : `Delete ${records.length} records`}
      pending={pending}
      onConfirm={failed.length ? close : run}
    />
  );
};
