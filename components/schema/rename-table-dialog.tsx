"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { useRenameTable } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

export const RenameTableDialog = ({ instance, table, open, onClose }: { instance: string; table: string; open: boolean; onClose: () => void }) => {
  const router = useRouter();
  const rename = useRenameTable(instance, table);
  const [name, setName] = useState(table);
  const errors = fieldErrors(rename.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(name.trim(), {
      onSuccess: (t) => {
        onClose();
        router.replace(`/databases/${instance}/schema?table=${encodeURIComponent(t.name)}`);
      },
    });
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Rename table ${table}`}
      description={
        <>
          Its endpoint moves from <code className="font-mono">/{table}</code> to the new name at once: apps still calling the old path get 404.
        </>
      }
    >
      <form onSubmit={submit}>
        <Field label="New name" htmlFor="rename-table" error={errors.name}>
          <TextInput id="rename-table" value={name} onChange={(e) => setName(e.target.value)} invalid={!!errors.name} autoFocus />
        </Field>
        {!errors.name && <div className="mt-3"><FormError error={rename.error} /></div>}
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={rename.isPending} disabled={name.trim() === table}>
            Rename
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
