"use client";
// The record form's input for a file column: the stored files (image previews, links that download, Remove),
// the files chosen to upload (from the file picker or dropped on the zone), sent with the write as multipart.
import { type DragEvent, useEffect, useState } from "react";
import type { Column } from "../api/types";
import { FileLink, FileTypeIcon, type FileValue, previewUrl, sizeText, useFileKey, useFileObjectUrl } from "./file-access";

/** What the form changes in one file column: files to upload and stored names to remove. */
export type FileEdit = { added: File[]; removed: string[] };
export const NO_FILE_EDIT: FileEdit = { added: [], removed: [] };

type Props = { id: string; column: Column; stored: FileValue[]; edit: FileEdit; onChange: (edit: FileEdit) => void; invalid: boolean; describedBy?: string };

/** A preview from an object URL (a stored file fetched with the key, or a chosen one). */
const Thumb = ({ src }: { src?: string }) =>
  src ? <img src={src} alt="" className="size-12 shrink-0 rounded border border-slate-200 object-cover" /> : null;

const StoredFileRow = ({ column, file, removed, onToggle }: { column: Column; file: FileValue; removed: boolean; onToggle: () => void }) => {
  const key = useFileKey();
  const preview = useFileObjectUrl(previewUrl(column, file), key);
  return (
    <li className="flex items-center gap-2">
      {preview ? <Thumb src={preview} /> : <FileTypeIcon type={file.type} />}
      <span className={`min-w-0 flex-1 truncate text-sm ${removed ? "text-slate-500 line-through" : ""}`}>
        <FileLink file={file}>{file.name}</FileLink> <span className="text-xs text-slate-600">{sizeText(file.size)}</span>
      </span>
      <button type="button" onClick={onToggle} className="rounded px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50">
        {removed ? "Keep" : "Remove"}
        <span className="sr-only"> {file.name}</span>
      </button>
    </li>
  );
};

const ChosenFileRow = ({ file, onDrop }: { file: File; onDrop: () => void }) => {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!file.type.startsWith("image/")) return;
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <li className="flex items-center gap-2">
      {src ? <Thumb src={src} /> : <FileTypeIcon type={file.type} />}
      <span className="min-w-0 flex-1 truncate text-sm">
        {file.name} <span className="text-xs text-slate-600">{sizeText(file.size)}, to upload</span>
      </span>
      <button type="button" onClick={onDrop} className="rounded px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50">
        Don’t upload<span className="sr-only"> {file.name}</span>
      </button>
    </li>
  );
};

export const FileField = ({ id, column, stored, edit, onChange, invalid, describedBy }: Props) => {
  const [over, setOver] = useState(false);
  const multiple = column.multiple === true;
  const choose = (files: File[]) => {
    if (!files.length) return;
    onChange({ ...edit, added: multiple ? [...edit.added, ...files] : files.slice(0, 1) });
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    choose([...e.dataTransfer.files]);
  };
  const replaced = !multiple && edit.added.length > 0;
  return (
    <div className="space-y-2">
      {stored.length > 0 && (
        <ul className="space-y-1.5" aria-label={`Stored files of ${column.name}`}>
          {stored.map((f) => (
            <StoredFileRow
              key={f.name}
              column={column}
              file={f}
              removed={replaced || edit.removed.includes(f.name)}
              onToggle={() => onChange({ ...edit, removed: edit.removed.includes(f.name) ? edit.removed.filter((n) => n !== f.name) : [...edit.removed, f.name] })}
            />
          ))}
        </ul>
      )}
      {edit.added.length > 0 && (
        <ul className="space-y-1.5" aria-label={`Files to upload to ${column.name}`}>
          {edit.added.map((f, i) => (
            <ChosenFileRow key={`${f.name}-${i}`} file={f} onDrop={() => onChange({ ...edit, added: edit.added.filter((_, j) => j !== i) })} />
          ))}
        </ul>
      )}
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid={`drop-${column.name}`}
        className={`rounded-md border border-dashed px-3 py-3 text-sm ${over ? "border-indigo-500 bg-indigo-50" : invalid ? "border-red-400" : "border-slate-300"}`}
      >
        <p className="mb-1.5 text-xs text-slate-600">
          Drop {multiple ? "files" : "a file"} here, or choose:
        </p>
        <input
          id={id}
          type="file"
          multiple={multiple}
          accept={column.accept?.join(",")}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            choose([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-indigo-700 hover:file:bg-indigo-100"
        />
      </div>
    </div>
  );
};
