"use client";
import { useId, useState } from "react";
import { can } from "../api/can";
import type { DatabaseRole } from "../api/types";
import { type SavedView, useCreateView, useDeleteView, useUpdateView, useViews } from "../api/use-views";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { FormError } from "../ui/states";
import { describeMissing, missingViewColumns } from "./view-columns";

type Props = {
  instance: string;
  table: string;
  role: DatabaseRole | undefined;
  /** The table's columns now: a view naming others (renamed or dropped since) says so. */
  columns: string[];
  /** What the grid shows now: saved as a new view, or into the chosen one. */
  current: { query: string; hidden: string[] };
  onApply: (view: SavedView) => void;
};

/** Who may change a view (as the API's assertMayChange): its creator (edit rights while shared), or an admin for a shared one. */
const mayChange = (view: SavedView, role: DatabaseRole | undefined) => (view.mine ? !view.shared || can(role, "write") : view.shared && can(role, "admin"));

/**
 * Saved views of the table: apply one, save what the grid shows now as a new view (private, or shared with edit
 * rights) or into the chosen one, delete. A view naming columns the table no longer has says which.
 */
export const ViewBar = ({ instance, table, role, columns, current, onApply }: Props) => {
  const views = useViews(instance, table);
  const create = useCreateView(instance, table);
  const update = useUpdateView(instance, table);
  const remove = useDeleteView(instance, table);
  const [chosen, setChosen] = useState("");
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const id = useId();
  const list = views.data ?? [];
  const picked = list.find((v) => String(v.id) === chosen);
  const mayDelete = picked && (picked.mine || (picked.shared && can(role, "admin")));
  const missing = picked ? missingViewColumns(picked, columns) : [];
  // Hidden columns the table no longer has (kept in the URL from a stale view) are left out of what is saved.
  const hiddenNow = current.hidden.filter((c) => columns.includes(c));
  const saveChanges = () => picked && update.mutate({ id: picked.id, body: { query: current.query, hidden_columns: hiddenNow } });
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
          update.reset();
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
      {picked && !saving && mayChange(picked, role) && (
        <Button size="sm" onClick={saveChanges} pending={update.isPending}>
          Save changes to {picked.name}
        </Button>
      )}
      {!saving ? (
        <Button size="sm" onClick={() => (create.reset(), update.reset(), setSaving(true))}>
          {picked ? "Save as new" : "Save view"}
        </Button>
      ) : (
        <form
          className="flex flex-wrap items-center gap-2"
          aria-label="Save this view"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              { name, query: current.query, hidden_columns: hiddenNow, shared },
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
      {update.isSuccess && picked && (
        <span role="status" className="text-xs text-slate-700">
          Saved changes to {picked.name}.
        </span>
      )}
      <FormError error={create.error ?? update.error ?? remove.error} />
      {missing.length > 0 && (
        <p role="alert" className="basis-full rounded-md border border-amber-200 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-800">
          {describeMissing(picked!.name, missing)}
        </p>
      )}
    </div>
  );
};
