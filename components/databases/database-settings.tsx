"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { lockedUnless } from "../api/can";
import { useDatabase, useDatabaseAccess, useDeleteDatabase, useRenameDatabase } from "../api/use-databases";
import { Button } from "../ui/button";
import { BackupsPanel } from "./backups-panel";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Field, TextInput } from "../ui/field";
import { LockNote } from "../ui/lock-note";
import { FormError } from "../ui/states";

type Part = { instance: string; /** Whether your role may use it; otherwise it is shown disabled, with why. */ allowed: boolean };

const RenameForm = ({ instance, current, allowed }: Part & { current: string }) => {
  const rename = useRenameDatabase(instance);
  const [name, setName] = useState(current);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(name);
  };
  return (
    <form onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
      <h2 className="text-sm font-semibold text-slate-900">Display name</h2>
      <p className="mt-1 text-sm text-slate-600">
        Renaming changes only how the database is shown. Its API path <code className="font-mono">/v1/{instance}</code> never changes, so apps keep working.
      </p>
      {!allowed && <LockNote level="write" />}
      <div className="mt-4 flex items-end gap-2">
        <Field className="w-80" label="Name" htmlFor="rename-db" error={fieldErrors(rename.error).name}>
          <TextInput id="rename-db" value={name} onChange={(e) => setName(e.target.value)} invalid={!!fieldErrors(rename.error).name} disabled={!allowed} />
        </Field>
        <Button type="submit" variant="primary" pending={rename.isPending} disabled={!allowed || name.trim() === current} title={lockedUnless(allowed, "write").title}>
          Rename
        </Button>
      </div>
      {!fieldErrors(rename.error).name && <div className="mt-3"><FormError error={rename.error} /></div>}
    </form>
  );
};

const DangerZone = ({ instance, name, allowed }: Part & { name: string }) => {
  const router = useRouter();
  const remove = useDeleteDatabase(instance);
  const [open, setOpen] = useState(false);
  return (
    <div className="rounded-lg border border-red-200 bg-white p-5 shadow-xs">
      <h2 className="text-sm font-semibold text-red-700">Delete this database</h2>
      <p className="mt-1 text-sm text-slate-600">Deletes every table and row, and the keys limited to it. This cannot be undone.</p>
      {!allowed && <LockNote level="admin" />}
      <Button variant="danger" className="mt-4" onClick={() => setOpen(true)} {...lockedUnless(allowed, "admin")}>
        Delete database…
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete “${name}”?`}
        consequences={
          <>
            <p>All of its tables and rows are deleted for good, with the API keys limited to this database.</p>
            <p>
              Apps calling <code className="font-mono">/v1/{instance}</code> get 401 or 404 from the next request on. The name{" "}
              <code className="font-mono">{instance}</code> is never reused.
            </p>
          </>
        }
        typeToConfirm={instance}
        confirmLabel="Delete database"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => router.replace("/databases") })}
      />
    </div>
  );
};

/** The database's Settings tab: rename, backups, delete. */
export const DatabaseSettings = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const access = useDatabaseAccess(instance);
  if (!database.data) return null;
  return (
    <div className="max-w-3xl space-y-6">
      <RenameForm key={database.data.name} instance={instance} current={database.data.name} allowed={access.write} />
      <BackupsPanel instance={instance} allowed={access.admin} />
      <DangerZone instance={instance} name={database.data.name} allowed={access.admin} />
    </div>
  );
};
