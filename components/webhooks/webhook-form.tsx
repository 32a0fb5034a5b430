"use client";
import { type FormEvent, useState } from "react";
import type { Table } from "../api/types";
import { type WebhookAction, useWebhookMutations } from "../api/use-webhooks";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

const ACTIONS: WebhookAction[] = ["insert", "update", "delete"];

/** New webhook: the URL, the tables (none ticked = all) and the actions (none ticked = all). */
export const WebhookForm = ({ instance, tables }: { instance: string; tables: Table[] }) => {
  const { create } = useWebhookMutations(instance);
  const [url, setUrl] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [actions, setActions] = useState<WebhookAction[]>([]);
  const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ url, tables: picked.length ? picked : null, actions: actions.length ? actions : null }, { onSuccess: () => setUrl("") });
  };
  return (
    <form onSubmit={submit} aria-label="New webhook" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <Field label="Endpoint URL" htmlFor="webhook-url">
        <TextInput id="webhook-url" type="url" required placeholder="https://example.com/hooks/tabula" value={url} onChange={(e) => setUrl(e.target.value)} />
      </Field>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800">
        <legend className="mb-1 text-xs font-medium text-slate-700">Tables (none ticked: every table)</legend>
        {tables.map((t) => (
          <label key={t.name} className="inline-flex items-center gap-1.5 font-mono">
            <input type="checkbox" checked={picked.includes(t.name)} onChange={() => setPicked(toggle(picked, t.name))} /> {t.name}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800">
        <legend className="mb-1 text-xs font-medium text-slate-700">Actions (none ticked: all)</legend>
        {ACTIONS.map((a) => (
          <label key={a} className="inline-flex items-center gap-1.5">
            <input type="checkbox" checked={actions.includes(a)} onChange={() => setActions(toggle(actions, a))} /> {a}
          </label>
        ))}
      </fieldset>
      {create.error && <FormError error={create.error} />}
      <Button type="submit" variant="primary" size="sm" pending={create.isPending}>
        Add webhook
      </Button>
    </form>
  );
};
