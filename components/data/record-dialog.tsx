"use client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { DataRecord, Table } from "../api/types";
import type { useRecordMutations } from "../api/use-records";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { FormError } from "../ui/states";
import { buildRecordBody, checkRecordValues, type FormValues, valueToText } from "./record-values";
import { RecordField, type ReferenceSupport } from "./record-field";
import type { ReadRows, ReferenceLabels } from "./reference-display";
import { isFile, isReference } from "@/lib/schema/type-traits";
import { filesIn } from "./file-access";
import { type FileEdit, NO_FILE_EDIT } from "./file-field";
import { SegmentedTabs } from "../ui/segmented-tabs";
import { RecordHistory } from "./record-history";

type Props = {
  table: Table;
  tables: Table[];
  record?: DataRecord;
  /** Display text of the record's references, as the grid shows them. */
  labels?: ReferenceLabels;
  read: ReadRows;
  save: ReturnType<typeof useRecordMutations>["save"];
  /** Where the History tab reads a record's revisions (tables with history only). */
  history?: { instance: string; apiKey: string };
  onClose: () => void;
};

const VIEWS = [
  { id: "fields", label: "Fields" },
  { id: "history", label: "History" },
] as const;

const initialValues = (table: Table, record?: DataRecord): FormValues =>
  Object.fromEntries(table.columns.map((c) => [c.name, record ? valueToText(c, record[c.name]) : ""]));

/**
 * The write's file changes: parts for a multipart body (new files; `<col>+` appends on an edit of a `multiple`
 * column, `<col>-` removes a stored name alongside), or, when nothing is uploaded, JSON values in `body`
 * (null for a single column, the names kept for a `multiple` one). Returns the form, or undefined for JSON.
 */
const fileChanges = (table: Table, record: DataRecord | undefined, edits: Record<string, FileEdit>, body: Record<string, unknown>) => {
  const form = new FormData();
  for (const column of table.columns.filter(isFile)) {
    const { added, removed } = edits[column.name] ?? NO_FILE_EDIT;
    if (!added.length && !removed.length) continue;
    if (column.multiple) {
      for (const file of added) form.append(record ? `${column.name}+` : column.name, file);
      if (added.length) for (const name of removed) form.append(`${column.name}-`, name);
      else body[column.name] = filesIn(record?.[column.name]).map((f) => f.name).filter((n) => !removed.includes(n));
    } else if (added.length) form.append(column.name, added[0]!);
    else body[column.name] = null;
  }
  return [...form.keys()].length ? form : undefined;
};

/** How long a finished upload's bar stays at 100% before the dialog closes. */
const UPLOADED_PAUSE_MS = 500;

const UploadProgress = ({ sent }: { sent: number }) => {
  const percent = Math.round(sent * 100);
  return (
    <div className="mt-4 space-y-1">
      <div role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 overflow-hidden rounded-full bg-slate-100">
        <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-600" aria-live="polite">
        {percent < 100 ? `Uploading… ${percent}%` : "Uploaded 100%"}
      </p>
    </div>
  );
};

/** Moves focus to the first field marked invalid and scrolls it into view. */
const focusFirstError = (form: HTMLFormElement | null) => {
  const first = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  first?.focus();
  first?.scrollIntoView({ block: "center" });
};

/**
 * Adds a record (POST) or edits one (PATCH of the changed fields). One submit shows every problem: the
 * form's own checks all at once, then the API's 422 (which lists every field too); focus goes to the first.
 */
export const RecordDialog = ({ table, tables, record, labels, read, save, history, onClose }: Props) => {
  const [view, setView] = useState<"fields" | "history">("fields");
  const withHistory = !!record && !!history && table.history !== false;
  const [initial] = useState(() => initialValues(table, record));
  const [values, setValues] = useState(initial);
  const [pending, setPending] = useState<Record<string, string>>({});
  const [fileEdits, setFileEdits] = useState<Record<string, FileEdit>>({});
  /** 0…1 while a write with files is sent; null when none is. */
  const [uploadSent, setUploadSent] = useState<number | null>(null);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const form = useRef<HTMLFormElement>(null);
  // A field changed after the API's answer no longer shows that answer's error for it.
  const [fixed, setFixed] = useState<Set<string>>(new Set());
  const apiErrors = Object.fromEntries(Object.entries(fieldErrors(save.error)).filter(([k]) => !fixed.has(k)));
  const errors = { ...apiErrors, ...clientErrors };
  const unclaimed = save.error && !table.columns.some((c) => apiErrors[c.name]);
  const refLabels = Object.fromEntries(
    table.columns.filter((c) => isReference(c) && record?.[c.name] != null).map((c) => [c.name, labels?.[c.references!]?.[record![c.name] as number] ?? ""]),
  );
  const references: ReferenceSupport = {
    tables,
    read,
    labels: Object.fromEntries(Object.entries(refLabels).filter(([, v]) => v)),
    onPending: (column, text) => setPending((p) => (text === null ? Object.fromEntries(Object.entries(p).filter(([k]) => k !== column)) : { ...p, [column]: text })),
  };

  useEffect(() => {
    if (save.error) focusFirstError(form.current);
  }, [save.error]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = checkRecordValues(table.columns, values, record ? initial : undefined);
    for (const [column, text] of Object.entries(pending)) problems[column] = `"${text}" is not chosen yet: pick a row from the list, or clear the text`;
    const { body, errors: parseProblems } = buildRecordBody(table.columns, values, record ? initial : undefined);
    const all = { ...problems, ...parseProblems };
    setClientErrors(all);
    setFixed(new Set());
    if (Object.keys(all).length) {
      // After React has marked the fields.
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    const parts = fileChanges(table, record, fileEdits, body);
    if (record && Object.keys(body).length === 0 && !parts) return onClose();
    if (!parts) return save.mutate({ id: record?.id, body }, { onSuccess: onClose });
    setUploadSent(0);
    save.mutate(
      { id: record?.id, body, upload: { form: parts, onProgress: setUploadSent } },
      {
        onSuccess: () => {
          setUploadSent(1);
          setTimeout(onClose, UPLOADED_PAUSE_MS);
        },
        onError: () => setUploadSent(null),
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title={record ? `Edit ${table.name} #${record.id}` : `Add a record to ${table.name}`}
      description={
        view === "history"
          ? "Who changed this record and when. Restore writes a revision back as a new one."
          : record
            ? "Only the fields you change are sent (PATCH)."
            : "Empty fields take their default. id, created_at and updated_at are set for you."
      }
    >
      {withHistory && (
        <div className="mb-4">
          <SegmentedTabs label="Record views" value={view} onChange={setView} options={VIEWS} />
        </div>
      )}
      {withHistory && view === "history" && (
        <div role="tabpanel" aria-label="History">
          <RecordHistory instance={history.instance} table={table.name} id={record.id} apiKey={history.apiKey} canRestore onRestored={onClose} />
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </div>
      )}
      <form ref={form} onSubmit={submit} noValidate hidden={withHistory && view === "history"}>
        {Object.keys(errors).length > 1 && (
          <p role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {Object.keys(errors).length} fields need attention; each is marked below.
          </p>
        )}
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
                references={references}
                files={
                  isFile(c)
                    ? {
                        stored: filesIn(record?.[c.name]),
                        edit: fileEdits[c.name] ?? NO_FILE_EDIT,
                        onChange: (edit) => {
                          setFileEdits((es) => ({ ...es, [c.name]: edit }));
                          setFixed((f) => new Set([...f, c.name]));
                        },
                      }
                    : undefined
                }
                onChange={(v) => {
                  setValues((vs) => ({ ...vs, [c.name]: v }));
                  setClientErrors(({ [c.name]: _fixed, ...rest }) => rest);
                  setFixed((f) => new Set([...f, c.name]));
                }}
              />
            ))}
          </div>
        )}
        {uploadSent !== null && <UploadProgress sent={uploadSent} />}
        {unclaimed && (
          <div className="mt-4">
            <FormError error={save.error} />
          </div>
        )}
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
