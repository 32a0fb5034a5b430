"use client";
import { useId, useState } from "react";
import { can } from "../api/can";
import type { DatabaseRole } from "../api/types";
import { type SavedView, useCreateView, useDeleteView, useViews } from "../api/use-views";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

type Props = {
  instance: string;
  table: string;
  role: DatabaseRole | undefined;
  /** What the grid shows now: saved as a new view. */
  current: { query: string; hidden: string[] };
  onApply: (view: SavedView) => void;
};

/** Saved views of the table: apply one, save what the grid shows now (private, or shared with edit rights), delete. */
export const ViewBar = ({ instance, table, role, current, onApply }: Props) => {
  const views = useViews(instance, table);
  const create = useCreateView(instance, table);
  const remove = useDeleteView(instance, table);
  const [chosen, setChosen] = useState("");
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const id = useId();
  const list = views.data ?? [];
  const picked = list.find((v) => String(v.id) === chosen);
  const mayDelete = picked && (picked.mine || (picked.shared && can(role, "admin")));
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={`${id}-view`} className="sr-only">
        Saved view
      </label>
      <SelectInput
        id={`${id}-view`}
        className="h-8 w-48 py-1 text-xs"
        value={chosen}
        onChange={(e) => {
          setChosen(e.target.value);
          const view = list.find((v) => String(v.id) === e.target.value);
          if (view) onApply(view);
        }}
      >
        <option value="">{list.length ? "Saved views…" : "No saved views"}</option>
        {list.map((v) => (
          <option key={v.id} value={v.id}>
            {v.name}
            {v.shared ? " (shared)" : ""}
          </option>
        ))}
      </SelectInput>
      {mayDelete && (
        <Button size="sm" variant="ghost" pending={remove.isPending} onClick={() => remove.mutate(picked.id, { onSuccess: () => setChosen("") })}>
          Delete view
        </Button>
      )}
      {!saving ? (
        <Button size="sm" onClick={() => (create.reset(), setSaving(true))}>
          Save view
        </Button>
      ) : (
        <form
          className="flex flex-wrap items-center gap-2"
          aria-label="Save this view"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              { name, query: current.query, hidden_columns: current.hidden, shared },
              {
                onSuccess: (view) => {
                  setSaving(false);
                  setName("");
                  setChosen(String(view.id));
                },
              },
            );
          }}
        >
          <label htmlFor={`${id}-name`} className="sr-only">
            View name
          </label>
          <TextInput id={`${id}-name`} autoFocus className="h-8 w-40 py-1 text-xs" placeholder="View name" value={name} onChange={(e) => setName(e.target.value)} />
          {can(role, "write") && (
            <label className="flex items-center gap-1 text-xs text-slate-700">
              <input type="checkbox" className="size-4 accent-indigo-600" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared with the workspace
            </label>
          )}
          <Button type="submit" size="sm" variant="primary" disabled={!name.trim()} pending={create.isPending}>
            Save
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSaving(false)}>
            Cancel
          </Button>
        </form>
      )}
      <FormError error={create.error ?? remove.error} />
    </div>
  );
};
