"use client";
import type { ReactNode } from "react";
import type { ColumnType } from "../api/types";
import { Checkbox, Field, SelectInput, TextInput } from "../ui/field";
import { SEARCHABLE_TYPES } from "@/lib/schema/search";
import { type ColumnDraft, typeHint } from "./column-draft";
import { OptionsEditor } from "./options-editor";
import { renameOption, setOptions } from "./option-renames";
import { TypePicker } from "./type-picker";
import { choicesOf, INDEX_TYPES, isFile, isJson, isReference, isSecret, takesParam, UNIQUE_TYPES } from "@/lib/schema/type-traits";
import { FileOptions } from "./file-options";

type Props = {
  draft: ColumnDraft;
  onChange: (d: ColumnDraft) => void;
  /** Tables a reference column may point to. */
  tables: string[];
  /** The API's problems for this column, by property (`name`, `type`, `options`, `default`, …). */
  errors: Record<string, string>;
  /** Shown under the Nullable checkbox with its error (the schema editor's "fill the empty rows" offer). */
  nullableHelp?: ReactNode;
};

const firstError = (errors: Record<string, string>, prefix: string) =>
  Object.entries(errors).find(([field]) => field === prefix || field.startsWith(`${prefix}[`))?.[1];

const SHOWN_BESIDE_INPUTS = new Set(["name", "type", "length", "precision", "scale", "references", "default", "nullable", "fill", "max_size"]);
/** Options whose items the API names one by one (`options[2]`, `accept[0]`): each shows its first problem beside its input. */
const LIST_OPTIONS = ["options", "accept", "thumbs"];

/** Problems no input shows (nullable, unique, the column as a whole) are listed under the editor. */
const otherErrors = (errors: Record<string, string>) =>
  Object.entries(errors).filter(([field]) => !SHOWN_BESIDE_INPUTS.has(field) && !LIST_OPTIONS.some((o) => field === o || field.startsWith(`${o}[`)));

/** The default's input fits the type: a select for booleans and dropdowns, text otherwise. */
const DefaultInput = ({ draft, set, error }: { draft: ColumnDraft; set: (f: Partial<ColumnDraft>) => void; error?: string }) => {
  const id = `${draft.key}-default`;
  if (isSecret(draft) || isFile(draft)) return null;
  const choices = choicesOf(draft);
  return (
    <Field label="Default" htmlFor={id} error={error} hint={choices ? undefined : isJson(draft) ? "JSON, e.g. {\"a\": 1}" : "Empty: no default"}>
      {choices ? (
        <SelectInput id={id} value={draft.defaultText} onChange={(e) => set({ defaultText: e.target.value })} invalid={!!error}>
          <option value="">No default</option>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectInput>
      ) : (
        <TextInput id={id} value={draft.defaultText} onChange={(e) => set({ defaultText: e.target.value })} invalid={!!error} placeholder={draft.type === "date" ? "2025-01-31" : ""} />
      )}
    </Field>
  );
};

/** One column's definition: name, type and the settings that type has. Used by quick create and the schema editor. */
export const ColumnEditor = ({ draft, onChange, tables, errors, nullableHelp }: Props) => {
  const set = (fields: Partial<ColumnDraft>) => onChange({ ...draft, ...fields });
  const setType = (type: ColumnType) =>
    set({ type, unique: draft.unique && UNIQUE_TYPES.includes(type), index: draft.index && INDEX_TYPES.includes(type), searchable: draft.searchable && SEARCHABLE_TYPES.includes(type), defaultText: "" });
  const id = (part: string) => `${draft.key}-${part}`;
  return (
    <div className="grid grid-cols-12 gap-x-3 gap-y-3">
      <Field className="col-span-12 sm:col-span-4" label="Name" htmlFor={id("name")} error={errors.name}>
        <TextInput id={id("name")} value={draft.name} onChange={(e) => set({ name: e.target.value })} placeholder="e.g. price" invalid={!!errors.name} autoComplete="off" />
      </Field>
      <Field className="col-span-12 sm:col-span-5" label="Type" htmlFor={id("type")} error={errors.type}>
        <TypePicker id={id("type")} value={draft.type} onChange={setType} invalid={!!errors.type} />
      </Field>
      <div className="col-span-12 flex flex-col justify-center gap-1.5 pt-4 sm:col-span-3">
        <Checkbox
          label="Nullable"
          checked={draft.nullable}
          onChange={(e) => set({ nullable: e.target.checked })}
          aria-invalid={errors.nullable ? true : undefined}
          aria-describedby={errors.nullable ? id("nullable-error") : undefined}
        />
        {errors.nullable && (
          <p id={id("nullable-error")} role="alert" className="field-error text-xs text-red-700">
            {errors.nullable}
          </p>
        )}
        <Checkbox
          label="Unique"
          checked={draft.unique}
          disabled={!UNIQUE_TYPES.includes(draft.type)}
          onChange={(e) => set({ unique: e.target.checked })}
        />
        <Checkbox
          label="Index"
          title={isReference(draft) ? "A reference column is always indexed" : "Faster filters and sorts on this column"}
          checked={isReference(draft) || draft.index}
          disabled={isReference(draft) || !INDEX_TYPES.includes(draft.type)}
          onChange={(e) => set({ index: e.target.checked })}
        />
        {SEARCHABLE_TYPES.includes(draft.type) && (
          <Checkbox
            label="Searchable"
            hint="Fast “contains” filters (_like, _ilike) through trigrams on SQLite; MariaDB scans"
            checked={draft.searchable}
            onChange={(e) => set({ searchable: e.target.checked })}
            aria-invalid={errors.searchable ? true : undefined}
          />
        )}
        {errors.searchable && (
          <p role="alert" className="field-error text-xs text-red-700">
            {errors.searchable}
          </p>
        )}
      </div>
      {nullableHelp && <div className="col-span-12">{nullableHelp}</div>}
      {takesParam(draft, "length") && (
        <Field className="col-span-6 sm:col-span-4" label="Length" htmlFor={id("length")} hint="Default 255" error={errors.length}>
          <TextInput id={id("length")} inputMode="numeric" value={draft.length} onChange={(e) => set({ length: e.target.value })} placeholder="255" invalid={!!errors.length} />
        </Field>
      )}
      {takesParam(draft, "precision") && (
        <>
          <Field className="col-span-6 sm:col-span-2" label="Precision" htmlFor={id("precision")} hint="Digits, default 10" error={errors.precision}>
            <TextInput id={id("precision")} inputMode="numeric" value={draft.precision} onChange={(e) => set({ precision: e.target.value })} placeholder="10" invalid={!!errors.precision} />
          </Field>
          <Field className="col-span-6 sm:col-span-2" label="Scale" htmlFor={id("scale")} hint="Decimals, default 2" error={errors.scale}>
            <TextInput id={id("scale")} inputMode="numeric" value={draft.scale} onChange={(e) => set({ scale: e.target.value })} placeholder="2" invalid={!!errors.scale} />
          </Field>
        </>
      )}
      {takesParam(draft, "options") && (
        <Field className="col-span-12 sm:col-span-8" label="Options" htmlFor={id("options")} error={firstError(errors, "options")}>
          <OptionsEditor
            id={id("options")}
            options={draft.options}
            onChange={(options) => set(setOptions(draft, options))}
            onRename={(from, to) => set(renameOption(draft, from, to))}
            invalid={!!firstError(errors, "options")}
          />
        </Field>
      )}
      {isReference(draft) && (
        <Field className="col-span-12 sm:col-span-6" label="References table" htmlFor={id("references")} hint="Stores the id of a row in that table (foreign key)" error={errors.references}>
          <SelectInput id={id("references")} value={draft.references} onChange={(e) => set({ references: e.target.value })} invalid={!!errors.references}>
            <option value="">Choose a table…</option>
            {tables.map((t) => (
              <option key={t} value={t}>
                {t}.id
              </option>
            ))}
          </SelectInput>
        </Field>
      )}
      {isFile(draft) && <FileOptions draft={draft} set={set} errors={{ max_size: errors.max_size, accept: firstError(errors, "accept"), thumbs: firstError(errors, "thumbs") }} />}
      <div className="col-span-12 sm:col-span-4">
        <DefaultInput draft={draft} set={set} error={errors.default} />
      </div>
      <p className="col-span-12 -mt-1 text-xs text-slate-500">
        <span className="font-medium text-slate-600">{draft.type}</span>: {typeHint(draft.type)}
      </p>
      {otherErrors(errors).map(([field, message]) => (
        <p key={field} role="alert" className="field-error col-span-12 -mt-1 text-xs text-red-600">
          {field && <span className="font-medium">{field}: </span>}
          {message}
        </p>
      ))}
    </div>
  );
};
