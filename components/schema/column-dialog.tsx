"use client";
import { type FormEvent, useEffect, useState } from "react";
import { ApiRequestError, fieldErrors } from "../api/api-error";
import type { Column } from "../api/types";
import { useAddColumn, useUpdateColumn } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { FormError } from "../ui/states";
import { type ColumnDraft, draftFromColumn, newColumnDraft, parseDefault, toColumnInput } from "./column-draft";
import { ColumnEditor } from "./column-editor";
import { ConvertAnyway, misfitRows } from "./convert-anyway";
import { FillOffer } from "./fill-offer";
import { takesParam } from "@/lib/schema/type-traits";
import { chosenRenames, type OptionInUse, optionsInUse, RemovedOptions } from "./removed-options";

type Props = { instance: string; table: string; tables: string[]; column?: Column; onClose: () => void };

/** Adds a column, or edits one (PATCH): applied at once to the table, its API and its docs. */
export const ColumnDialog = ({ instance, table, tables, column, onClose }: Props) => {
  const add = useAddColumn(instance, table);
  const update = useUpdateColumn(instance, table, column?.name ?? "");
  const mutation = column ? update : add;
  const [draft, setDraft] = useState<ColumnDraft>(() => (column ? draftFromColumn(column) : newColumnDraft()));
  // Removing options that rows hold: the API's 422 counts them and nothing changes; the user says what they become.
  const [asked, setAsked] = useState<OptionInUse[]>([]);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const inUse = optionsInUse(mutation.error);
  useEffect(() => {
    const found = optionsInUse(mutation.error);
    if (found.length) setAsked(found);
  }, [mutation.error]);
  const { options: _inPanel, ...otherErrors } = fieldErrors(mutation.error);
  const errors = asked.length ? otherErrors : fieldErrors(mutation.error);
  const save = (fill?: string, misfits?: "null") => {
    const input = toColumnInput(draft);
    // A PATCH removes a default with null; POST simply omits it.
    const body: Record<string, unknown> = column && input.default === undefined && column.default !== undefined ? { ...input, default: null } : { ...input };
    const answered = Object.fromEntries(Object.entries(choices).filter(([option]) => asked.some((a) => a.option === option) && !draft.options.includes(option)));
    const rename = { ...draft.renames, ...chosenRenames(answered) };
    if (column && takesParam(draft.type, "options") && Object.keys(rename).length) body.rename = rename;
    if (fill !== undefined) body.fill = parseDefault(fill, draft.type) ?? null;
    if (misfits) body.misfits = misfits;
    mutation.mutate(body as never, { onSuccess: onClose });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  // Making a column required while rows are empty: offer to fill them in the same change.
  const emptyRows = mutation.error instanceof ApiRequestError ? mutation.error.errors.find((x) => x.field === "nullable" && x.code === "null_values") : undefined;
  const [offer, setOffer] = useState<string | null>(null);
  useEffect(() => {
    if (emptyRows) setOffer(emptyRows.message);
  }, [emptyRows]);
  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title={column ? `Edit column ${table}.${column.name}` : `Add a column to ${table}`}
      description={
        column
          ? "Existing rows are converted when the change is lossless; otherwise nothing changes and the reason is shown."
          : "Existing rows get the default (a NOT NULL column on a table with rows needs one)."
      }
    >
      <form onSubmit={submit}>
        <ColumnEditor
          draft={draft}
          onChange={setDraft}
          tables={tables}
          errors={errors}
          nullableHelp={column && offer && !draft.nullable && <FillOffer message={offer} type={draft.type} options={draft.options} pending={mutation.isPending} error={errors.fill} onFill={save} />}
        />
        {asked.length > 0 && (
          <RemovedOptions inUse={asked} options={draft.options} nullable={draft.nullable} choices={choices} onChoose={(option, choice) => setChoices((c) => ({ ...c, [option]: choice }))} />
        )}
        {column && misfitRows(mutation.error) > 0 && (
          <ConvertAnyway rows={misfitRows(mutation.error)} nullable={draft.nullable} pending={mutation.isPending} onConvert={() => save(undefined, "null")} />
        )}
        {Object.keys(errors).length === 0 && !inUse.length && <div className="mt-4"><FormError error={mutation.error} /></div>}
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={mutation.isPending}>
            {column ? "Save column" : "Add column"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
