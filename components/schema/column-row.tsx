"use client";
// One column of a new table (quick create, Add table) or of an "Add columns" batch, as one compact row: name,
// type, what the type needs (options, referenced table, length), default, Required and Unique in line; the
// rarer settings (index, search, file options) fold under "More".
import { useState } from "react";
import type { ColumnType } from "../api/types";
import { Checkbox, SelectInput, TextInput } from "../ui/field";
import { SEARCHABLE_TYPES } from "@/lib/schema/search";
import { choiceInWords, choicesOf, INDEX_TYPES, isFile, isReference, isSecret, takesParam, typeInWords, UNIQUE_TYPES } from "@/lib/schema/type-traits";
import { type ColumnDraft } from "./column-draft";
import { FileOptions } from "./file-options";
import { TypePicker } from "./type-picker";

type Props = {
  draft: ColumnDraft;
  /** 1-based, for the row's accessible names. */
  position: number;
  onChange: (d: ColumnDraft) => void;
  onRemove?: () => void;
  /** Tables a reference column may point to. */
  tables: string[];
  /** The API's problems for this column, by property (`name`, `options[1]`, …), in words. */
  errors: Record<string, string>;
};

const LABELS: Record<string, string> = { name: "Name", type: "Type", options: "Options", references: "References", default: "Default", nullable: "Required", unique: "Unique", length: "Length", precision: "Precision", scale: "Scale" };
const labelOf = (field: string) => LABELS[field.replace(/\[.*$/, "")] ?? field;
const has = (errors: Record<string, string>, field: string) => Object.keys(errors).some((f) => f === field || f.startsWith(`${field}[`));
const small = "h-8 py-1";

/** A dropdown's options as a comma list; the text is kept as typed so "draft, " can go on to the next option. */
const OptionsText = ({ id, options, onChange, invalid }: { id: string; options: string[]; onChange: (o: string[]) => void; invalid: boolean }) => {
  const [text, setText] = useState(options.join(", "));
  const parse = (t: string) => [...new Set(t.split(",").map((v) => v.trim()).filter(Boolean))];
  return (
    <TextInput
      id={id}
      aria-label="Options"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parse(e.target.value));
      }}
      placeholder="Options: draft, live"
      invalid={invalid}
      className={small}
      autoComplete="off"
    />
  );
};

/** What the type needs besides its name: a dropdown's options, a reference's table, a length, a precision. */
const TypeDetails = ({ draft, set, tables, errors }: { draft: ColumnDraft; set: (f: Partial<ColumnDraft>) => void; tables: string[]; errors: Record<string, string> }) => {
  const id = (part: string) => `${draft.key}-${part}`;
  if (takesParam(draft, "options")) return <OptionsText id={id("options")} options={draft.options} onChange={(options) => set({ options })} invalid={has(errors, "options")} />;
  if (isReference(draft)) {
    return (
      <SelectInput id={id("references")} aria-label="References table" value={draft.references} onChange={(e) => set({ references: e.target.value })} invalid={!!errors.references} className={small}>
        <option value="">Reference to…</option>
        {tables.map((t) => (
          <option key={t} value={t}>
            {typeInWords({ type: "reference", references: t })}
          </option>
        ))}
      </SelectInput>
    );
  }
  if (takesParam(draft, "length")) {
    return <TextInput id={id("length")} aria-label="Length" inputMode="numeric" value={draft.length} onChange={(e) => set({ length: e.target.value })} placeholder="Length 255" invalid={!!errors.length} className={small} />;
  }
  if (takesParam(draft, "precision")) {
    return (
      <div className="flex gap-1.5">
        <TextInput aria-label="Precision" inputMode="numeric" value={draft.precision} onChange={(e) => set({ precision: e.target.value })} placeholder="Digits 10" invalid={!!errors.precision} className={small} />
        <TextInput aria-label="Scale" inputMode="numeric" value={draft.scale} onChange={(e) => set({ scale: e.target.value })} placeholder="Decimals 2" invalid={!!errors.scale} className={small} />
      </div>
    );
  }
  return null;
};

/** The default in one box: a select where the type has choices (Yes/No, a dropdown's options), text otherwise. */
const DefaultBox = ({ draft, set, invalid }: { draft: ColumnDraft; set: (f: Partial<ColumnDraft>) => void; invalid: boolean }) => {
  if (isSecret(draft) || isFile(draft)) return null;
  const choices = choicesOf(draft);
  const id = `${draft.key}-default`;
  if (choices) {
    return (
      <SelectInput id={id} aria-label="Default" value={draft.defaultText} onChange={(e) => set({ defaultText: e.target.value })} invalid={invalid} className={small}>
        <option value="">No default</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {choiceInWords(draft, c)}
          </option>
        ))}
      </SelectInput>
    );
  }
  return <TextInput id={id} aria-label="Default" value={draft.defaultText} onChange={(e) => set({ defaultText: e.target.value })} invalid={invalid} placeholder="Default" className={small} />;
};

/** The column grid's header (wide screens; each input has its own label for screen readers and phones). */
export const ColumnRowsHeader = () => (
  <div aria-hidden className="hidden gap-2 px-3 pb-1 text-xs font-medium text-slate-500 md:grid md:grid-cols-[1.25rem_minmax(7rem,1fr)_8rem_minmax(9rem,1.3fr)_minmax(6rem,0.8fr)_auto_auto_2rem_2rem]">
    <span />
    <span>Name</span>
    <span>Type</span>
    <span>Options / reference / size</span>
    <span>Default</span>
    <span>Required</span>
    <span>Unique</span>
    <span />
    <span />
  </div>
);

export const ColumnRow = ({ draft, position, onChange, onRemove, tables, errors }: Props) => {
  const [more, setMore] = useState(false);
  const set = (fields: Partial<ColumnDraft>) => onChange({ ...draft, ...fields });
  const setType = (type: ColumnType) =>
    set({ type, unique: draft.unique && UNIQUE_TYPES.includes(type), index: draft.index && INDEX_TYPES.includes(type), searchable: draft.searchable && SEARCHABLE_TYPES.includes(type), defaultText: "" });
  const id = (part: string) => `${draft.key}-${part}`;
  const moreShown = more || isFile(draft) || has(errors, "max_size") || has(errors, "accept") || has(errors, "thumbs") || has(errors, "index") || has(errors, "searchable");
  // A file option's problem shows beside its input in the folded settings.
  const problems = Object.entries(errors).filter(([field]) => !(isFile(draft) && /^(max_size|accept|thumbs)/.test(field)));
  return (
    <li aria-label={`Column ${position}`} className="px-3 py-2">
      <div className="flex flex-wrap items-center gap-2 md:grid md:grid-cols-[1.25rem_minmax(7rem,1fr)_8rem_minmax(9rem,1.3fr)_minmax(6rem,0.8fr)_auto_auto_2rem_2rem]">
        <span className="w-5 text-right text-xs text-slate-400 max-md:order-first">{position}</span>
        <TextInput
          id={id("name")}
          aria-label="Name"
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          placeholder="column_name"
          invalid={!!errors.name}
          autoComplete="off"
          className={`${small} min-w-0 flex-1 font-mono max-md:order-first md:w-full`}
        />
        <div className="w-28 max-md:order-first md:w-auto">
          <TypePicker id={id("type")} value={draft.type} onChange={setType} invalid={!!errors.type} className={small} />
        </div>
        <div className="w-full empty:hidden md:w-auto md:empty:block">
          <TypeDetails draft={draft} set={set} tables={tables} errors={errors} />
        </div>
        <div className="min-w-0 flex-1 basis-28 md:w-auto md:basis-auto">
          <DefaultBox draft={draft} set={set} invalid={!!errors.default} />
        </div>
        <Checkbox label="Required" checked={!draft.nullable} onChange={(e) => set({ nullable: !e.target.checked })} aria-invalid={errors.nullable ? true : undefined} />
        <Checkbox label="Unique" checked={draft.unique} disabled={!UNIQUE_TYPES.includes(draft.type)} onChange={(e) => set({ unique: e.target.checked })} aria-invalid={errors.unique ? true : undefined} />
        <button
          type="button"
          onClick={() => setMore(!more)}
          aria-expanded={moreShown}
          aria-controls={id("more")}
          aria-label={`More settings for column ${position}`}
          title="Index, search, file options"
          className="grid size-8 place-items-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 max-md:order-first"
        >
          <span aria-hidden>{moreShown ? "▾" : "▸"}</span>
        </button>
        {onRemove && (
          <button type="button" onClick={onRemove} aria-label={`Remove column ${position}`} className="grid size-8 place-items-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 max-md:order-first">
            <span aria-hidden>×</span>
          </button>
        )}
      </div>
      {moreShown && (
        <div id={id("more")} className="mt-2 grid grid-cols-12 gap-3 rounded-md bg-slate-50 p-3 md:ml-7">
          <div className="col-span-12 flex flex-wrap gap-x-6 gap-y-1.5">
            <Checkbox
              label="Index"
              hint={isReference(draft) ? "A reference is always indexed" : "Faster filters and sorts"}
              checked={isReference(draft) || draft.index}
              disabled={isReference(draft) || !INDEX_TYPES.includes(draft.type)}
              onChange={(e) => set({ index: e.target.checked })}
            />
            {SEARCHABLE_TYPES.includes(draft.type) && (
              <Checkbox label="Searchable" hint="Fast “contains” filters" checked={draft.searchable} onChange={(e) => set({ searchable: e.target.checked })} />
            )}
          </div>
          {isFile(draft) && <FileOptions draft={draft} set={set} errors={{ max_size: errors.max_size, accept: errors.accept ?? errors["accept[0]"], thumbs: Object.entries(errors).find(([f]) => f.startsWith("thumbs"))?.[1] }} />}
        </div>
      )}
      {problems.length > 0 && (
        <div className="mt-1 space-y-0.5 md:ml-7">
          {problems.map(([field, message]) => (
            <p key={field} role="alert" className="field-error text-xs text-red-600">
              <span className="font-medium">{labelOf(field)}: </span>
              {message}
            </p>
          ))}
        </div>
      )}
    </li>
  );
};
