import { SEARCHABLE_TYPES } from "@/lib/schema/search";
import type { Column, ColumnInput, ColumnType } from "../api/types";
import { INDEX_TYPES, isFile, isJson, isNumeric, isReference, isSecret, takesParam } from "@/lib/schema/type-traits";

/** A column being edited: text as typed, turned into an API column object only on submit. */
export type ColumnDraft = {
  key: string;
  name: string;
  type: ColumnType;
  nullable: boolean;
  unique: boolean;
  /** An index on the column (a reference always has one). */
  index: boolean;
  /** A trigram index for "contains" filters (varchar and text). */
  searchable: boolean;
  defaultText: string;
  length: string;
  precision: string;
  scale: string;
  options: string[];
  /** Saved options renamed here, old → new: sent as the PATCH's `rename`, so their rows follow. */
  renames: Record<string, string>;
  /** The options as saved (empty for a new column): only these can be renamed. */
  savedOptions: string[];
  references: string;
  /** File columns: several files per row, the most bytes of one, accepted types and thumb sizes (comma lists as typed), public downloads. */
  multiple: boolean;
  maxSize: string;
  accept: string;
  thumbs: string;
  isPublic: boolean;
};

export const TYPE_GROUPS: { label: string; types: { type: ColumnType; label: string; hint: string }[] }[] = [
  {
    label: "Text",
    types: [
      { type: "varchar", label: "varchar", hint: "Short text with a maximum length" },
      { type: "text", label: "text", hint: "Long text, up to 64 KB" },
      { type: "password", label: "password", hint: "Stored as a bcrypt hash on every write" },
    ],
  },
  {
    label: "Numbers",
    types: [
      { type: "int", label: "int", hint: "Whole number (32-bit)" },
      { type: "bigint", label: "bigint", hint: "Whole number (64-bit)" },
      { type: "decimal", label: "decimal", hint: "Exact number with precision and scale, e.g. prices" },
      { type: "float", label: "float", hint: "Approximate number (double)" },
    ],
  },
  {
    label: "Other",
    types: [
      { type: "boolean", label: "boolean", hint: "true or false" },
      { type: "date", label: "date", hint: "YYYY-MM-DD" },
      { type: "datetime", label: "datetime", hint: "ISO-8601 date and time, stored in UTC" },
      { type: "json", label: "json", hint: "Any JSON value" },
    ],
  },
  {
    label: "Choices and relations",
    types: [
      { type: "dropdown", label: "dropdown", hint: "One of a fixed list of options (ENUM)" },
      { type: "reference", label: "reference", hint: "Foreign key to another table's id" },
    ],
  },
  {
    label: "Files",
    types: [{ type: "file", label: "file", hint: "Uploaded files (images get thumbnails), stored with the row" }],
  },
];

export const typeHint = (type: ColumnType) => TYPE_GROUPS.flatMap((g) => g.types).find((t) => t.type === type)?.hint ?? "";

let counter = 0;
export const draftKey = () => `d${++counter}`;

export const newColumnDraft = (fields: Partial<ColumnDraft> = {}): ColumnDraft => ({
  key: draftKey(),
  name: "",
  type: "varchar",
  nullable: true,
  unique: false,
  index: false,
  searchable: false,
  defaultText: "",
  length: "",
  precision: "",
  scale: "",
  options: [],
  renames: {},
  savedOptions: [],
  references: "",
  multiple: false,
  maxSize: "",
  accept: "",
  thumbs: "",
  isPublic: false,
  ...fields,
});

const defaultToText = (value: unknown) => (value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value));

export const draftFromColumn = (c: Column): ColumnDraft =>
  newColumnDraft({
    name: c.name,
    type: c.type,
    nullable: c.nullable,
    unique: c.unique,
    index: c.index,
    searchable: c.searchable,
    defaultText: defaultToText(c.default),
    length: c.length?.toString() ?? "",
    precision: c.precision?.toString() ?? "",
    scale: c.scale?.toString() ?? "",
    options: c.options ?? [],
    savedOptions: c.options ?? [],
    references: c.references ?? "",
    multiple: c.multiple ?? false,
    maxSize: c.max_size?.toString() ?? "",
    accept: (c.accept ?? []).join(", "),
    thumbs: (c.thumbs ?? []).join(", "),
    isPublic: c.public ?? false,
  });

/** A comma (or space) separated list as typed → its items; empty → undefined (the option is left out). */
const listOf = (text: string) => {
  const items = text.split(/[,\s]+/).filter(Boolean);
  return items.length ? items : undefined;
};

/** A whole number from its text; anything else goes to the API as typed, so its 422 names the problem. */
const numberOrText = (text: string): unknown => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

/** The default as JSON of the column's type; text the type cannot read is sent as typed (the API explains). */
export const parseDefault = (text: string, type: ColumnType): unknown => {
  if (text === "") return undefined;
  if (isNumeric(type) || isReference(type)) return numberOrText(text);
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : text;
  if (isJson(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
};

/** The API column object: only the properties the type has, numbers as numbers. */
export const toColumnInput = (d: ColumnDraft): ColumnInput => {
  const input: ColumnInput = { name: d.name.trim(), type: d.type, nullable: d.nullable, unique: d.unique };
  const put = (key: keyof ColumnInput, value: unknown) => {
    if (value !== "" && value !== undefined) (input as Record<string, unknown>)[key] = value;
  };
  if (takesParam(d, "length")) put("length", d.length && numberOrText(d.length));
  if (takesParam(d, "precision")) put("precision", d.precision && numberOrText(d.precision));
  if (takesParam(d, "scale")) put("scale", d.scale && numberOrText(d.scale));
  if (takesParam(d, "options")) input.options = d.options;
  if (isReference(d)) put("references", d.references);
  else if (INDEX_TYPES.includes(d.type)) input.index = d.index;
  if (isFile(d)) {
    input.multiple = d.multiple;
    input.public = d.isPublic;
    put("max_size", d.maxSize && numberOrText(d.maxSize));
    put("accept", listOf(d.accept));
    put("thumbs", listOf(d.thumbs));
  }
  // Sent even when off, so a type change away from text also turns it off (the API would keep it and refuse).
  input.searchable = SEARCHABLE_TYPES.includes(d.type) && d.searchable;
  if (!isSecret(d) && !isFile(d)) put("default", parseDefault(d.defaultText, d.type));
  return input;
};

