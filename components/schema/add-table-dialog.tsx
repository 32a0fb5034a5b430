"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { useCreateTable } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

/** Creates an empty table (id, created_at, updated_at); columns are added next in the editor. */
export const AddTableDialog = ({ instance, open, onClose }: { instance: string; open: boolean; onClose: () => void }) => {
  const router = useRouter();
  const create = useCreateTable(instance);
  const [name, setName] = useState("");
  const errors = fieldErrors(create.error);
  const close = () => {
    setName("");
    create.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), columns: [] },
      {
        onSuccess: (table) => {
          close();
          router.push(`/databases/${instance}/schema?table=${encodeURIComponent(table.name)}`);
        },
      },
    );
  };
  return (
    <Dialog open={open} onClose={close} title="Add a table" description="It starts with id, created_at and updated_at; add your columns next. Its API endpoints exist at once.">
      <form onSubmit={submit}>
        <Field label="Table name" htmlFor="new-table-name" hint="Lowercase letters, digits and _; starts with a letter." error={errors.name}>
          <TextInput id="new-table-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. orders" invalid={!!errors.name} autoFocus />
        </Field>
        {!errors.name && <div className="mt-3"><FormError error={create.error} /></div>}
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" pending={create.isPending}>
            Add table
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
