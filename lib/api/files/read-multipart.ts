// A multipart/form-data write body, read as it streams (busboy): file parts go straight to the file store under
// their final keys, each judged on the way (its type sniffed from its first bytes against the column's
// `accept`, its size against `max_size` / FILE_MAX_BYTES, which fails the moment it is passed), and the other
// parts become the record (`_json`, or one form field per column read with the column's type). Any refusal
// deletes what was stored and stops reading; the caller deletes it too when the write is then refused.
import busboy from "busboy";
import type { Readable } from "node:stream";
import { ApiError, invalidField } from "../../errors";
import { storedFileName } from "../../files/safe-name";
import type { FileStore } from "../../files/store";
import { sniffBody } from "../../files/sniff-type";
import { accepts } from "../../schema/file-options";
import { FileInput, MAX_FILES_PER_VALUE, type StoredFile } from "../../schema/file-value";
import { isFile } from "../../schema/type-traits";
import { typedValue } from "../../schema/typed-value";
import type { ColumnDef } from "../../schema/types";
import type { TableIndex } from "../table-index";
import { type FileScope, fileKey } from "./file-scope";

const MAX_FIELD_BYTES = 1_048_576;
const MAX_PARTS = 1000;

export type MultipartWrite = {
  /** The record: column values, with a FileInput per file column the parts touched. */
  body: Record<string, unknown>;
  /** Keys stored for this request (deleted when the write is refused). */
  keys: string[];
  /** Bytes stored. */
  bytes: number;
};

export type MultipartOptions = {
  stream: NodeJS.ReadableStream;
  contentType: string;
  index: TableIndex;
  scope: FileScope;
  /** FILE_MAX_BYTES. */
  maxBytes: number;
  /** Called with the bytes stored so far before each file is stored (the storage quota: 402). */
  beforeStore?: (storedBytes: number) => Promise<void> | void;
};

type Touch = { files: StoredFile[]; append: boolean; remove: string[] };

const fileColumn = (index: TableIndex, field: string): ColumnDef => {
  const column = index.byName.get(field);
  if (!column || column.system) throw invalidField(field, "unknown_column", `"${field}" is not a column of ${index.table.name}`);
  if (!isFile(column)) throw invalidField(field, "not_a_file_column", `"${field}" is not a file column; send its value as a form field`);
  return column;
};

/** `photo`, `photo+` (append) or `photo-` (remove a stored name) → the column name and the suffix. */
const splitName = (name: string) => {
  const suffix = name.endsWith("+") ? "+" : name.endsWith("-") ? "-" : "";
  return { field: suffix ? name.slice(0, -1) : name, suffix };
};

export const readMultipartWrite = (options: MultipartOptions): Promise<MultipartWrite> => {
  const { stream, contentType, index, scope, maxBytes } = options;
  const body: Record<string, unknown> = {};
  const touched = new Map<string, Touch>();
  const keys: string[] = [];
  let bytes = 0;
  let failure: unknown;
  const pending: Promise<void>[] = [];
  /** File parts still streaming: a body that ends early (the client went away) fails them, so nothing waits on it. */
  const open = new Set<Readable>();
  const touch = (column: ColumnDef) => {
    let t = touched.get(column.name);
    if (!t) touched.set(column.name, (t = { files: [], append: false, remove: [] }));
    return t;
  };

  return new Promise<MultipartWrite>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8", limits: { fieldSize: MAX_FIELD_BYTES, parts: MAX_PARTS, fieldNameSize: 300 } });
    } catch {
      reject(invalidField("body", "invalid_multipart", "the multipart body has no boundary in its Content-Type"));
      return;
    }
    let settled = false;
    const finish = async (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (err) {
        stream.unpipe(parser);
        // Nothing more of the body is read: the answer goes out now and the connection closes behind it.
        (stream as Readable).resume?.();
        await Promise.allSettled(pending);
        await scope.store.delete(keys).catch(() => undefined);
        reject(err);
        return;
      }
      try {
        await Promise.all(pending);
      } catch (e) {
        await scope.store.delete(keys).catch(() => undefined);
        reject(e);
        return;
      }
      if (failure) return void (await scope.store.delete(keys).catch(() => undefined), reject(failure));
      for (const [name, t] of touched) body[name] = new FileInput(t.files, { append: t.append, remove: t.remove });
      resolve({ body, keys, bytes });
    };
    const fail = (err: unknown) => {
      failure ??= err;
      void finish(err);
    };

    parser.on("file", (name, part, info) => {
      if (failure) return void part.resume();
      open.add(part);
      part.once("end", () => open.delete(part)).once("close", () => open.delete(part));
      const stored = (async () => {
        const { field, suffix } = splitName(name);
        const column = fileColumn(index, field);
        if (suffix === "-") throw invalidField(name, "invalid_part", `"${name}" names a stored file to remove; send it as a form field, not a file`);
        const t = touch(column);
        if (suffix === "+") {
          if (!column.multiple) throw invalidField(name, "not_multiple", `"${field}" holds one file; "${field}+" appends to multiple columns only`);
          t.append = true;
        }
        if (t.files.length >= (column.multiple ? MAX_FILES_PER_VALUE : 1)) {
          throw invalidField(field, "too_many_files", column.multiple ? `"${field}" holds at most ${MAX_FILES_PER_VALUE} files` : `"${field}" holds one file (the column is not multiple)`);
        }
        // The file's place is kept in part order, whichever store finishes first.
        const slot: StoredFile = { name: "", size: 0, type: "" };
        t.files.push(slot);
        await options.beforeStore?.(bytes);
        const { type, body: whole } = await sniffBody(part);
        if (!accepts(column, type)) {
          part.resume();
          throw invalidField(field, "type_not_accepted", `"${field}" accepts ${column.accept!.join(", ")}; this file is ${type}`);
        }
        const limit = Math.min(column.max_size ?? maxBytes, maxBytes);
        const storedName = storedFileName(info.filename ?? "file");
        const key = fileKey(scope, storedName);
        keys.push(key);
        const put = await scope.store.put(key, whole, { contentType: type, maxBytes: limit });
        bytes += put.size;
        Object.assign(slot, { name: storedName, size: put.size, type });
      })();
      pending.push(stored.catch((err) => {
        part.resume();
        fail(err);
      }));
    });
    parser.on("field", (name, value, info) => {
      if (failure) return;
      try {
        if (info.valueTruncated) throw invalidField(name, "too_long", `"${name}" is longer than 1 MiB`);
        readField(index, body, name, value, touch);
      } catch (err) {
        fail(err);
      }
    });
    parser.on("partsLimit", () => fail(invalidField("body", "too_many_parts", `a multipart body has at most ${MAX_PARTS} parts`)));
    parser.on("error", () => fail(invalidField("body", "invalid_multipart", "the multipart body is malformed")));
    parser.on("close", () => void finish());
    const cutOff = (err: unknown) => {
      for (const part of open) part.destroy(err as Error);
      fail(err);
    };
    stream.on("error", cutOff);
    // A client that goes away mid-body: the node request closes without ending (no error without a listener).
    stream.on("close", () => {
      if (!(stream as Readable).readableEnded) cutOff(new ApiError("bad_request", "The request body ended before its multipart closing boundary (the client went away)."));
    });
    stream.pipe(parser);
  });
};

/** A form field: `_json` (the record), `<col>-` (a stored name to remove), or a column's value as typed text. */
const readField = (index: TableIndex, body: Record<string, unknown>, name: string, value: string, touch: (c: ColumnDef) => Touch) => {
  if (name === "_json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalidField("_json", "invalid_json", "the _json part is not valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalidField("_json", "invalid_type", "the _json part must be a JSON object (one record)");
    for (const [key, v] of Object.entries(parsed)) {
      if (index.byName.get(key) && isFile(index.byName.get(key)!) && v !== null) {
        throw invalidField(key, "invalid_type", `"${key}" is uploaded as a file part (or set to null)`);
      }
      body[key] = v;
    }
    return;
  }
  const { field, suffix } = splitName(name);
  if (suffix === "-") {
    touch(fileColumn(index, field)).remove.push(value);
    return;
  }
  const column = index.byName.get(name);
  if (!column) throw invalidField(name, "unknown_column", `"${name}" is not a column of ${index.table.name}`);
  if (isFile(column)) {
    if (value !== "") throw invalidField(name, "invalid_type", `"${name}" is uploaded as a file part; an empty field clears it`);
    body[name] = null;
    return;
  }
  if (value === "" && column.nullable) {
    body[name] = null;
    return;
  }
  if (column.system) {
    body[name] = value;
    return;
  }
  const typed = typedValue(column, value);
  if (!typed.ok) throw invalidField(name, typed.code, `"${name}" ${typed.message}`);
  body[name] = typed.value;
};
