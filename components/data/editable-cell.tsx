"use client";
import { type FocusEvent, type KeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import { ApiRequestError, errorMessage, fieldErrors } from "../api/api-error";
import type { Column, Table } from "../api/types";
import { checkRecordValues, textToValue, valueToText } from "./record-values";
import type { ReadRows } from "./reference-display";
import type { Departure } from "./use-held-edit";
import { ReferencePicker } from "./reference-picker";
import { choicesOf, isReference } from "@/lib/schema/type-traits";

type Props = {
  column: Column;
  recordId: number;
  value: unknown;
  /** PATCHes one column; rejects with the API's error. */
  save: (id: number, body: Record<string, unknown>) => Promise<unknown>;
  onDone: (focusCell: boolean) => void;
  /** With these a reference cell is the search picker, not an id box. */
  references?: { tables: Table[]; read: ReadRows };
  /** The referenced row's display text, when known. */
  label?: string;
  /** Set when a reload took the record off the page (someone else deleted or changed it). */
  departure?: Departure | null;
  /** Set to this editor's save-if-changed while it is open: the grid runs it before opening another cell. */
  flush?: RefObject<(() => Promise<boolean>) | null>;
};

/**
 * The editor inside a cell: Enter or leaving it saves (PATCH of this column) when the value changed, Escape
 * cancels, a refusal shows in the cell and keeps it open.
 */
export const EditableCell = ({ column, recordId, value, save, onDone, references, label, departure, flush }: Props) => {
  const initial = valueToText(column, value);
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deletedOnSave, setDeletedOnSave] = useState(false);
  const deleted = departure === "deleted" || deletedOnSave;
  const id = `cell-${recordId}-${column.name}`;
  const choices = choicesOf(column);

  // One save at a time: a blur and the next cell's double click ask for the same one.
  const saving = useRef<Promise<boolean> | null>(null);
  const closed = useRef(false);
  const close = (refocus: boolean) => {
    closed.current = true;
    onDone(refocus);
  };
  const run = async (next: string, refocus: boolean) => {
    if (deleted) return false;
    if (next === initial) return (close(refocus), true);
    const problem = checkRecordValues([column], { [column.name]: next }, { [column.name]: initial })[column.name] ?? textToValue(column, next).error;
    if (problem) return (setError(problem), false);
    setBusy(true);
    try {
      await save(recordId, { [column.name]: textToValue(column, next).value });
      close(refocus);
      return true;
    } catch (err) {
      // Deleted before the live reload told us: the PATCH found nothing to change.
      if (err instanceof ApiRequestError && err.status === 404) setDeletedOnSave(true);
      else setError(fieldErrors(err)[column.name] ?? errorMessage(err));
      setBusy(false);
      return false;
    }
  };
  const commit = (next = text, refocus = true) => {
    if (closed.current) return Promise.resolve(true);
    saving.current ??= run(next, refocus).finally(() => (saving.current = null));
    return saving.current;
  };
  useEffect(() => {
    if (!flush) return;
    flush.current = () => (deleted ? Promise.resolve((close(false), true)) : commit(text, false));
    return () => void (flush.current = null);
  });
  // Focus leaving the editor (a click elsewhere) saves; a deleted record's editor stays until Escape.
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (closed.current || busy || deleted || e.currentTarget.contains(e.relatedTarget as Node | null)) return;
    void commit(text, false);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement | HTMLSelectElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      void commit();
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    }
  };
  const common = {
    id,
    autoFocus: true,
    disabled: busy,
    "aria-label": `${column.name} of record ${recordId}`,
    "aria-invalid": error || deleted ? true : undefined,
    "aria-describedby": error || deleted ? `${id}-error` : undefined,
    onKeyDown: onKey,
    className: `w-full min-w-28 rounded border px-1.5 py-1 text-sm text-slate-900 ${error ? "border-red-500" : "border-indigo-400"}`,
  };
  return (
    <div className="space-y-1" onBlur={onBlur}>
      {isReference(column) && references ? (
        // The picker's own keys choose a row; choosing saves it, Escape leaves the cell.
        <div onKeyDown={(e) => e.key === "Escape" && (e.preventDefault(), e.stopPropagation(), close(true))}>
          <label htmlFor={id} className="sr-only">
            {column.name} of record {recordId}
          </label>
          <ReferencePicker
            id={id}
            target={references.tables.find((t) => t.name === column.references)}
            value={text}
            label={label}
            invalid={!!error}
            describedBy={error ? `${id}-error` : undefined}
            read={references.read}
            onChange={(v) => {
              setText(v);
              setError(null);
              void commit(v);
            }}
            onPending={() => setError(null)}
          />
        </div>
      ) : choices ? (
        <select {...common} value={text} onChange={(e) => setText(e.target.value)}>
          {column.nullable && <option value="">NULL</option>}
          {choices.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      ) : (
        <input {...common} value={text} onChange={(e) => (setText(e.target.value), setError(null))} />
      )}
      {deleted ? (
        <p id={`${id}-error`} role="alert" className="max-w-64 text-xs font-medium whitespace-normal text-red-700">
          Record {recordId} was deleted by someone else; nothing was saved. Esc closes.
        </p>
      ) : error ? (
        <p id={`${id}-error`} role="alert" className="max-w-64 text-xs whitespace-normal text-red-700">
          {error}
        </p>
      ) : departure === "moved" ? (
        <p className="max-w-64 text-[11px] whitespace-normal text-slate-700">Changed elsewhere, this record left the page; Enter still saves to record {recordId}.</p>
      ) : (
        <p className="text-[11px] text-slate-600">Enter or click away saves · Esc cancels</p>
      )}
    </div>
  );
};
