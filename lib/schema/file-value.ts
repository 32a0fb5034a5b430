// What a file column holds: the stored form of its value (`{"name", "size", "type"}`, or an array of those when
// the column is `multiple`), and the one way a value reaches a write. A client's JSON can never name stored
// objects directly: the write path turns uploads and the names it keeps into a StoredFiles, the only value the
// file type's `fromJson` takes, so a body cannot point a row at a file it does not own.

/** One stored file as kept in the row; `url` is added when the row is answered (lib/api/file-urls.ts). */
export type StoredFile = { name: string; size: number; type: string };

/** Most files a `multiple` column holds. */
export const MAX_FILES_PER_VALUE = 99;

/** A file column's value as the write path made it (never parsed from a request). */
export class StoredFiles {
  readonly files: StoredFile[];
  readonly multiple: boolean;
  constructor(files: StoredFile[], multiple: boolean) {
    this.files = files;
    this.multiple = multiple;
  }
  /** The stored JSON text, or null for no file. */
  stored(): string | null {
    if (this.multiple) return JSON.stringify(this.files);
    return this.files.length ? JSON.stringify(this.files[0]) : null;
  }
  /** How an example shows in the OpenAPI document. */
  toJSON() {
    return this.multiple ? this.files : (this.files[0] ?? null);
  }
}

const isStoredFile = (v: unknown): v is StoredFile =>
  typeof v === "object" && v !== null && typeof (v as StoredFile).name === "string" && typeof (v as StoredFile).size === "number";

/** The files a stored value (JSON text or parsed) names, in order; none for null or anything unreadable. */
export const filesOf = (value: unknown): StoredFile[] => {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (Array.isArray(v)) return v.filter(isStoredFile);
  return isStoredFile(v) ? [v] : [];
};

/** The stored value as a write binds it; a single column with several files keeps none of them silently. */
export const toStoredFiles = (files: StoredFile[], multiple: boolean) => new StoredFiles(files, multiple);

/**
 * What a write asks of a file column, made by the write path from multipart parts or a tus upload:
 * `files` newly stored, `append` (`<col>+`) adds them to the row's files, `remove` (`<col>-`) drops stored names.
 */
export class FileInput {
  readonly files: StoredFile[];
  readonly append: boolean;
  readonly remove: string[];
  constructor(files: StoredFile[], { append = false, remove = [] }: { append?: boolean; remove?: string[] } = {}) {
    this.files = files;
    this.append = append;
    this.remove = remove;
  }
}

const nameOf = (v: unknown) => (typeof v === "string" ? v : v && typeof v === "object" && typeof (v as StoredFile).name === "string" ? (v as StoredFile).name : undefined);

/** Names a JSON value keeps: (multiple) an array of names or file objects; (single) one file object. */
const keptNames = (input: unknown, multiple: boolean): string[] | undefined => {
  if (multiple && Array.isArray(input)) {
    const names = input.map(nameOf);
    return names.every((n) => n !== undefined) ? (names as string[]) : undefined;
  }
  if (!multiple && input && typeof input === "object" && !Array.isArray(input) && !(input instanceof StoredFiles)) {
    const name = nameOf(input);
    return name === undefined ? undefined : [name];
  }
  return undefined;
};

type Resolved = { ok: true; value: StoredFiles } | { ok: false; code: string; message: string };

const fail = (code: string, message: string): Resolved => ({ ok: false, code, message });

/**
 * A file column's new value from what the write asks (`input`: a FileInput, or from a JSON body the stored names
 * to keep) and the row's current value. Names that are not the row's own are refused, never looked up.
 */
export const resolveFileValue = (column: { multiple?: boolean }, input: unknown, current: unknown): Resolved => {
  const multiple = column.multiple === true;
  const stored = filesOf(current);
  let files: StoredFile[];
  if (input instanceof FileInput) {
    const unknown = input.remove.filter((name) => !stored.some((f) => f.name === name));
    if (unknown.length) return fail("not_stored", `has no stored file named ${JSON.stringify(unknown[0])}`);
    const kept = stored.filter((f) => !input.remove.includes(f.name));
    files = input.append || input.remove.length ? [...kept, ...input.files] : input.files;
  } else if (keptNames(input, multiple)) {
    // The stored names to keep, or the file objects as a read gave them (GET → edit → PUT keeps the files).
    const names = keptNames(input, multiple)!;
    const unknown = names.filter((name) => !stored.some((f) => f.name === name));
    if (unknown.length) return fail("not_stored", `has no stored file named ${JSON.stringify(unknown[0])}; send the names of stored files to keep`);
    files = stored.filter((f) => names.includes(f.name));
  } else {
    return fail("invalid_type", `must be uploaded with multipart/form-data, a tus upload ({"upload": id}), null${multiple ? ", or the stored names to keep" : ""}`);
  }
  if (!multiple && files.length > 1) return fail("too_many_files", "holds one file (the column is not multiple)");
  if (files.length > MAX_FILES_PER_VALUE) return fail("too_many_files", `holds at most ${MAX_FILES_PER_VALUE} files`);
  return { ok: true, value: toStoredFiles(files, multiple) };
};
