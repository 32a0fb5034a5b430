"use client";
// The History tab of a record's editor and a table's Recently deleted list (docs/history.md): who changed what
// and when, each change as its columns before and after, and Restore after a confirmation. A restore is a
// write like any other (hooks and policies apply) and becomes a new revision.
import { useState } from "react";
import type { DataRecord } from "../api/types";
import { type Revision, useDeletedRecords, useRecordHistory, useRestoreRevision } from "../api/use-history";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { EmptyState, ErrorState, FormError, LoadingState } from "../ui/states";

const ACTIONS = { insert: "Created", update: "Updated", delete: "Deleted" } as const;

const actorText = (actor: Revision["actor"]) => {
  if (!actor) return "unknown";
  if (actor.kind === "system") return "the system";
  const kind = { key: "API key", user: "app user", member: "dashboard member" }[actor.kind];
  return `${kind} #${actor.id}`;
};

const valueText = (v: unknown) => {
  if (v === null || v === undefined) return "empty";
  const text = typeof v === "object" ? JSON.stringify(v) : String(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

const when = (at: string) => new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The changed columns of one revision: before (the revision older than it) and after. */
const Diff = ({ revision, before }: { revision: Revision; before?: DataRecord | null }) => {
  if (!revision.record || revision.changed.length === 0) return null;
  return (
    <dl className="mt-2 grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {revision.changed.map((column) => (
        <div key={column} className="contents">
          <dt className="font-mono text-slate-700">{column}</dt>
          <dd className="min-w-0 break-words text-slate-900">
            {revision.action === "update" && before && (
              <>
                <del className="text-red-700">{valueText(before[column])}</del> →{" "}
              </>
            )}
            <ins className="text-emerald-800 no-underline">{valueText(revision.record![column])}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
};

type Confirm = { rev: number; id: number; label: string } | null;

/** The confirmation in place of a Restore: the first click asks, this one writes. */
const ConfirmRestore = ({ confirm, restore, onCancel, onDone }: { confirm: NonNullable<Confirm>; restore: ReturnType<typeof useRestoreRevision>; onCancel: () => void; onDone: () => void }) => (
  <div role="alertdialog" aria-label="Confirm restore" className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
    <p>{confirm.label} Its values are written back as a new revision; hooks and policies apply.</p>
    {restore.error ? (
      <div className="mt-2">
        <FormError error={restore.error} />
      </div>
    ) : null}
    <div className="mt-2 flex gap-2">
      <Button size="sm" variant="primary" pending={restore.isPending} onClick={() => restore.mutate({ id: confirm.id, rev: confirm.rev }, { onSuccess: onDone })}>
        Restore
      </Button>
      <Button size="sm" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  </div>
);

type HistoryProps = { instance: string; table: string; id: number; apiKey: string; canRestore: boolean; onRestored: () => void };

/** A record's revisions, newest first; every one but the newest (and deletes) can be restored. */
export const RecordHistory = ({ instance, table, id, apiKey, canRestore, onRestored }: HistoryProps) => {
  const history = useRecordHistory(instance, table, id, apiKey);
  const restore = useRestoreRevision(instance, table, apiKey);
  const [confirm, setConfirm] = useState<Confirm>(null);
  if (history.isLoading) return <LoadingState label="Loading history…" />;
  if (history.error) return <ErrorState error={history.error} title="Could not load the history" onRetry={() => history.refetch()} />;
  const revisions = history.data ?? [];
  if (revisions.length === 0) return <EmptyState title="No history yet">Changes made from now on are listed here.</EmptyState>;
  return (
    <ol aria-label={`History of ${table} #${id}`} className="space-y-3">
      {revisions.map((r, i) => (
        <li key={r.rev} className="rounded-md border border-slate-200 p-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="text-sm text-slate-900">
              <span className="font-medium">{ACTIONS[r.action]}</span> by {actorText(r.actor)}
              <span className="text-slate-600"> · <time dateTime={r.at}>{when(r.at)}</time></span>
              {i === 0 && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">current</span>}
            </p>
            {canRestore && i > 0 && r.record && (
              <Button size="sm" onClick={() => (restore.reset(), setConfirm({ rev: r.rev, id, label: `Restore #${id} to how it was ${when(r.at)}?` }))}>
                Restore
              </Button>
            )}
          </div>
          {!r.record && <p className="mt-1 text-xs text-slate-600">This revision is hidden from you.</p>}
          <Diff revision={r} before={revisions[i + 1]?.record} />
          {confirm?.rev === r.rev && <ConfirmRestore confirm={confirm} restore={restore} onCancel={() => setConfirm(null)} onDone={onRestored} />}
        </li>
      ))}
    </ol>
  );
};

const summary = (record: DataRecord | null) =>
  record
    ? Object.entries(record)
        .filter(([k]) => !["id", "created_at", "updated_at"].includes(k))
        .slice(0, 3)
        .map(([k, v]) => `${k}: ${valueText(v)}`)
        .join(" · ")
    : "";

type DeletedProps = { instance: string; table: string; apiKey: string; canRestore: boolean; onClose: () => void };

/** A table's records deleted within the history window and not restored since, with Restore. */
export const DeletedRecords = ({ instance, table, apiKey, canRestore, onClose }: DeletedProps) => {
  const deleted = useDeletedRecords(instance, table, apiKey);
  const restore = useRestoreRevision(instance, table, apiKey);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <Dialog open onClose={onClose} wide title={`Recently deleted in ${table}`} description="Records deleted within the history window. Restore brings one back with its id.">
      {done && (
        <p role="status" className="mb-3 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done}
        </p>
      )}
      {deleted.isLoading ? (
        <LoadingState label="Loading deleted records…" />
      ) : deleted.error ? (
        <ErrorState error={deleted.error} title="Could not load deleted records" onRetry={() => deleted.refetch()} />
      ) : (deleted.data ?? []).length === 0 ? (
        <EmptyState title="Nothing deleted recently">Deleted records stay restorable here for the history window.</EmptyState>
      ) : (
        <ul aria-label={`Deleted records of ${table}`} className="space-y-3">
          {deleted.data!.map((r) => {
            const id = Number(r.record?.id);
            return (
              <li key={r.rev} className="rounded-md border border-slate-200 p-3">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="min-w-0 text-sm text-slate-900">
                    <span className="font-mono font-medium">#{id}</span> deleted by {actorText(r.actor)}
                    <span className="text-slate-600"> · <time dateTime={r.at}>{when(r.at)}</time></span>
                  </p>
                  {canRestore && (
                    <Button size="sm" onClick={() => (restore.reset(), setConfirm({ rev: r.rev, id, label: `Restore #${id}?` }))}>
                      Restore
                    </Button>
                  )}
                </div>
                <p className="mt-1 truncate text-xs text-slate-700">{summary(r.record)}</p>
                {confirm?.rev === r.rev && (
                  <ConfirmRestore confirm={confirm} restore={restore} onCancel={() => setConfirm(null)} onDone={() => (setConfirm(null), setDone(`#${id} is back.`))} />
                )}
              </li>
            );
          })}
        </ul>
      )}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
