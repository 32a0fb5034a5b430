"use client";
// The Backups panel of a database's settings: its backups with status and size, "Back up now", downloads,
// the schedule, and restoring an archive as a new database with the upload's progress.
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { lockedUnless } from "../api/can";
import { type Backup, downloadUrl, uploadRestore, useBackupMutations, useBackups, useBackupSchedule } from "../api/use-backups";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { LockNote } from "../ui/lock-note";
import { FormError } from "../ui/states";
import { Table } from "../ui/table";

const sizeOf = (bytes: number | null) => (bytes === null ? "—" : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const TONE = { running: "indigo", done: "green", failed: "red" } as const;

const BackupRow = ({ instance, backup }: { instance: string; backup: Backup }) => (
  <tr>
    <td className="px-4 py-2 whitespace-nowrap text-slate-700">{new Date(backup.created_at).toLocaleString()}</td>
    <td className="px-4 py-2">
      <Badge tone={TONE[backup.status]}>{backup.status}</Badge>
      {backup.error && <p className="mt-1 text-xs text-red-700">{backup.error}</p>}
    </td>
    <td className="px-4 py-2 text-right text-slate-700">{sizeOf(backup.size)}</td>
    <td className="px-4 py-2 text-right text-slate-700">{backup.rows ?? "—"}</td>
    <td className="px-4 py-2 text-right">
      {backup.status === "done" && (
        <a className="font-medium text-indigo-700 underline hover:text-indigo-900" href={downloadUrl(instance, backup.id)} download>
          Download<span className="sr-only"> backup {backup.id}</span>
        </a>
      )}
    </td>
  </tr>
);

const ScheduleForm = ({ instance, allowed }: { instance: string; allowed: boolean }) => {
  const schedule = useBackupSchedule(instance);
  const { schedule: save } = useBackupMutations(instance);
  const [every, setEvery] = useState<string | undefined>();
  const [keep, setKeep] = useState<string | undefined>();
  if (!schedule.data) return null;
  const everyValue = every ?? (schedule.data.every_hours === null ? "" : String(schedule.data.every_hours));
  const keepValue = keep ?? String(schedule.data.keep);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ every_hours: everyValue.trim() === "" ? null : Number(everyValue), keep: Number(keepValue) });
  };
  const errors = fieldErrors(save.error);
  return (
    <form onSubmit={submit} className="mt-5 border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Schedule</h3>
      <p className="mt-1 text-sm text-slate-600">
        {schedule.data.every_hours === null ? "No scheduled backups." : `Every ${schedule.data.every_hours} h, keeping ${schedule.data.keep}; next ${new Date(schedule.data.next_at!).toLocaleString()}.`}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <Field className="w-44" label="Every (hours; empty: off)" htmlFor="backup-every" error={errors.every_hours}>
          <TextInput id="backup-every" inputMode="numeric" value={everyValue} onChange={(e) => setEvery(e.target.value)} disabled={!allowed} invalid={!!errors.every_hours} />
        </Field>
        <Field className="w-28" label="Keep" htmlFor="backup-keep" error={errors.keep}>
          <TextInput id="backup-keep" inputMode="numeric" value={keepValue} onChange={(e) => setKeep(e.target.value)} disabled={!allowed} invalid={!!errors.keep} />
        </Field>
        <Button type="submit" pending={save.isPending} {...lockedUnless(allowed, "admin")}>
          Save schedule
        </Button>
      </div>
      {!errors.every_hours && !errors.keep && <div className="mt-2"><FormError error={save.error} /></div>}
    </form>
  );
};

const RestoreForm = ({ allowed }: { allowed: boolean }) => {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [restored, setRestored] = useState<{ instance: string; name: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setError(null);
    setRestored(null);
    setProgress(0);
    try {
      setRestored(await uploadRestore(file, name.trim(), setProgress));
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  };
  const percent = progress === null ? 0 : Math.round(progress * 100);
  return (
    <form onSubmit={submit} className="mt-5 border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Restore a backup</h3>
      <p className="mt-1 text-sm text-slate-600">Upload an archive (from either engine) to create a new database from it.</p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <Field className="w-64" label="Archive (.tar.gz)" htmlFor="restore-file">
          <input id="restore-file" type="file" accept=".gz,application/gzip" className="block w-full text-sm text-slate-700" onChange={(e) => setFile(e.target.files?.[0] ?? null)} disabled={!allowed} />
        </Field>
        <Field className="w-56" label="New database name" htmlFor="restore-name" error={fieldErrors(error).name}>
          <TextInput id="restore-name" value={name} onChange={(e) => setName(e.target.value)} disabled={!allowed} invalid={!!fieldErrors(error).name} />
        </Field>
        <Button type="submit" variant="primary" pending={progress !== null} disabled={!allowed || !file || !name.trim()}>
          Restore
        </Button>
      </div>
      {progress !== null && (
        <div className="mt-3" role="progressbar" aria-label="Uploading the archive" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <div className="h-2 overflow-hidden rounded-full bg-slate-100">
            <div className="h-full rounded-full bg-indigo-600" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">{percent < 100 ? `Uploading… ${percent}%` : "Restoring…"}</p>
        </div>
      )}
      {!fieldErrors(error).name && <div className="mt-2"><FormError error={error} /></div>}
      {restored && (
        <p className="mt-2 text-sm text-emerald-800" role="status">
          Restored as <Link className="font-medium underline" href={`/databases/${restored.instance}`}>{restored.name}</Link>.
        </p>
      )}
    </form>
  );
};

/** The panel: admins back up, download, schedule and restore; other roles see it locked. */
export const BackupsPanel = ({ instance, allowed }: { instance: string; allowed: boolean }) => {
  const backups = useBackups(instance);
  const { start } = useBackupMutations(instance);
  return (
    <section aria-labelledby="backups-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="backups-title" className="text-sm font-semibold text-slate-900">Backups</h2>
          <p className="mt-1 text-sm text-slate-600">Every table and row at one point in time, with the schema, policies, hooks and joins.</p>
        </div>
        <Button variant="primary" pending={start.isPending} onClick={() => start.mutate()} {...lockedUnless(allowed, "admin")}>
          Back up now
        </Button>
      </div>
      {!allowed && <LockNote level="admin" />}
      <div className="mt-2"><FormError error={start.error} /></div>
      {allowed && backups.data && backups.data.length > 0 && (
        <div className="mt-4">
          <Table label="Backups" columns={["Taken", "Status", { label: "Size", align: "right" }, { label: "Rows", align: "right" }, { label: "Download", hidden: true }]}>
            {backups.data.map((b) => <BackupRow key={b.id} instance={instance} backup={b} />)}
          </Table>
        </div>
      )}
      {allowed && backups.data?.length === 0 && <p className="mt-4 text-sm text-slate-600">No backups yet.</p>}
      {allowed && <ScheduleForm instance={instance} allowed={allowed} />}
      <RestoreForm allowed={allowed} />
    </section>
  );
};
