import type { Column, Table } from "../api/types";
import { Field, SelectInput, TextArea, TextInput } from "../ui/field";
import type { ReadRows } from "./reference-display";
import { ReferencePicker } from "./reference-picker";
import { choiceInWords, choicesOf, isFile, isJson, isReference, isSecret, typeInWords } from "@/lib/schema/type-traits";
import type { FileValue } from "./file-access";
import { FileField, type FileEdit } from "./file-field";

/** What a reference field needs: the referenced table, a way to search it, the chosen row's display text. */
export type ReferenceSupport = { tables: Table[]; read: ReadRows; labels: Record<string, string>; onPending: (column: string, text: string | null) => void };

/** A file column's stored files and what the form changes in them. */
export type FileSupport = { stored: FileValue[]; edit: FileEdit; onChange: (edit: FileEdit) => void };

type Props = { column: Column; value: string; onChange: (v: string) => void; error?: string; editing: boolean; references?: ReferenceSupport; files?: FileSupport };

const hintFor = (c: Column, editing: boolean) => {
  if (isSecret(c)) return editing ? "Leave empty to keep the current password. Stored as a bcrypt hash." : "Stored as a bcrypt hash.";
  if (isReference(c)) return `a row of ${c.references}: type to search, ↓ and Enter to choose`;
  if (c.type === "datetime") return "ISO-8601, e.g. 2025-01-31T09:30:00Z";
  if (c.type === "decimal") return `up to ${c.scale} decimal places`;
  if (c.type === "varchar") return `up to ${c.length} characters`;
  if (isFile(c)) return [c.accept?.join(", "), c.max_size ? `up to ${c.max_size} bytes` : undefined, c.multiple ? "several files" : undefined].filter(Boolean).join("; ") || undefined;
  return undefined;
};

/** What the empty choice of a select means: the default on a new record, else NULL (or nothing chosen). */
const emptyChoice = (c: Column, editing: boolean) => {
  if (!editing && c.default !== undefined) return `Default (${choiceInWords(c, String(c.default))})`;
  return c.nullable ? "NULL" : "Choose…";
};

/** One input of the record form; the API's error for this column shows under it. */
export const RecordField = ({ column, value, onChange, error, editing, references, files }: Props) => {
  const id = `field-${column.name}`;
  const label = (
    <>
      <span className="font-mono">{column.name}</span> <span className="font-normal text-slate-600" title={column.mysql_type}>
        {typeInWords(column)}
      </span>
      {!column.nullable && (
        <span className="ml-1 text-red-500" title="Required">
          *
        </span>
      )}
    </>
  );
  const common = { id, invalid: !!error, "aria-describedby": error ? `${id}-error` : undefined };
  const choices = choicesOf(column);
  return (
    <Field label={label} htmlFor={id} error={error} hint={hintFor(column, editing)}>
      {isFile(column) && files ? (
        <FileField id={id} column={column} stored={files.stored} edit={files.edit} onChange={files.onChange} invalid={!!error} describedBy={common["aria-describedby"]} />
      ) : isReference(column) && references ? (
        <ReferencePicker
          id={id}
          target={references.tables.find((t) => t.name === column.references)}
          value={value}
          label={references.labels[column.name]}
          invalid={!!error}
          describedBy={common["aria-describedby"]}
          read={references.read}
          onChange={(v) => onChange(v)}
          onPending={(text) => references.onPending(column.name, text)}
        />
      ) : choices ? (
        <SelectInput {...common} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{emptyChoice(column, editing)}</option>
          {choices.map((c) => (
            <option key={c} value={c}>
              {choiceInWords(column, c)}
            </option>
          ))}
        </SelectInput>
      ) : isJson(column) || column.type === "text" ? (
        <TextArea {...common} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : column.type === "datetime" ? (
        // Typed ISO-8601 stays possible; the picker beside it writes the same text, in UTC.
        <div className="flex gap-2">
          <TextInput {...common} autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} placeholder="2025-01-31T09:30:00Z" />
          <input
            type="datetime-local"
            step={1}
            aria-label={`Pick ${column.name} (UTC)`}
            value={/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z$/.test(value) ? value.slice(0, 19) : ""}
            onChange={(e) => e.target.value && onChange(`${e.target.value.length === 16 ? `${e.target.value}:00` : e.target.value}Z`)}
            className="w-11 shrink-0 rounded-md border border-slate-300 bg-white px-1 text-sm text-slate-900 sm:w-auto"
          />
        </div>
      ) : (
        <TextInput
          {...common}
          type={isSecret(column) ? "password" : column.type === "date" ? "date" : "text"}
          autoComplete={isSecret(column) ? "new-password" : "off"}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
};
