"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { can } from "../api/can";
import type { ApiKey } from "../api/types";
import { useDatabases } from "../api/use-databases";
import { useCreateKey } from "../api/use-keys";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, SelectInput, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

/** Creates a key: account-wide (every database, and the management API) or limited to one database. */
export const CreateKeyDialog = ({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (k: ApiKey) => void }) => {
  const create = useCreateKey();
  // Shared databases too: a key acts there with your role (a viewer's key reads only).
  const databases = useDatabases({ scope: "all" });
  const [name, setName] = useState("");
  const [scope, setScope] = useState("");
  const errors = fieldErrors(create.error);
  const chosen = databases.data?.find((db) => db.instance === scope);
  const close = () => {
    setName("");
    setScope("");
    create.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), database: scope || null },
      {
        onSuccess: (key) => {
          onCreated(key as ApiKey);
          close();
        },
      },
    );
  };
  return (
    <Dialog open={open} onClose={close} title="Create an API key">
      <form onSubmit={submit} className="space-y-4">
        <Field label="Name" htmlFor="key-name" hint="What uses it, e.g. “Mobile app” or “CI”." error={errors.name}>
          <TextInput id="key-name" value={name} onChange={(e) => setName(e.target.value)} invalid={!!errors.name} autoFocus />
        </Field>
        <Field label="Access" htmlFor="key-scope" error={errors.database}>
          <SelectInput id="key-scope" value={scope} onChange={(e) => setScope(e.target.value)}>
            <option value="">All my databases (account-wide)</option>
            {databases.data?.map((db) => (
              <option key={db.instance} value={db.instance}>
                Only {db.name} ({db.instance}){db.role === "owner" ? "" : ` · ${db.owner.email}’s, as ${db.role}`}
              </option>
            ))}
          </SelectInput>
        </Field>
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {chosen
            ? can(chosen.role, "write")
              ? `This key reads and writes every table of ${chosen.instance}, and nothing else.`
              : `This key reads every table of ${chosen.instance}, and nothing else: you are a viewer there, so its writes are refused.`
            : "This key reads and writes every table of every database you own, and can change schemas and keys through the management API. On databases shared with you it has your role there."}{" "}
          Treat it like a password: keep it on servers, not in browsers or public repositories.
        </p>
        {!errors.name && <FormError error={create.error} />}
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" pending={create.isPending}>
            Create key
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
