"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { DataRecord, Table } from "../api/types";
import type { useRecordMutations } from "../api/use-records";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { FormError } from "../ui/states";
import { buildRecordBody, type FormValues, valueToText } from "./record-values";
import { RecordField } from "./record-field";

type Props = { table: Table; record?: DataRecord; save: ReturnType<typeof useRecordMutations>["save"]; onClose: () => void };

const initialValues = (table: Table, record?: DataRecord): FormValues =>
  Object.fromEntries(table.columns.map((c) => [c.name, record ? valueToText(c, record[c.name]) : ""]));

/** Adds a record (POST) or edits one (PATCH of the changed fields); errors land on the field the API names. */
export const RecordDialog = ({ table, record, save, onClose }: Props) => {
  const [initial] = useState(() => initialValues(table, record));
  const [values, setValues] = useState(initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const apiErrors = fieldErrors(save.error);
  const errors = { ...apiErrors, ...clientErrors };
  const unclaimed = save.error && !table.columns.some((c) => apiErrors[c.name]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { body, errors: problems } = buildRecordBody(table.columns, values, record ? initial : undefined);
    setClientErrors(problems);
    if (Object.keys(problems).length) return;
    if (record && Object.keys(body).length === 0) return onClose();
    save.mutate({ id: record?.id, body }, { onSuccess: onClose });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title={record ? `Edit ${table.name} #${record.id}` : `Add a record to ${table.name}`}
      description={record ? "Only the fields you change are sent (PATCH)." : "Empty fields take their default. id, created_at and updated_at are set for you."}
    >
      <form onSubmit={submit} noValidate>
        {table.columns.length === 0 ? (
          <p className="text-sm text-slate-600">This table has only automatic columns; a record can still be added.</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            {table.columns.map((c) => (
              <RecordField
                key={c.name}
                column={c}
                editing={!!record}
                value={values[c.name] ?? ""}
                error={errors[c.name]}
                onChange={(v) => setValues({ ...values, [c.name]: v })}
              />
            ))}
          </div>
        )}
        {unclaimed && <div className="mt-4"><FormError error={save.error} /></div>}
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={save.isPending}>
            {record ? "Save changes" : "Add record"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
