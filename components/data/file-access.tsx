"use client";
// How the dashboard shows and downloads a file column's files: downloads need the data API key in a header,
// which <img src> and links cannot send, so files are fetched with it and shown from object URLs.
import { createContext, type MouseEvent, useContext, useEffect, useState } from "react";
import type { Column } from "../api/types";
import type { StoredFile } from "@/lib/schema/file-value";

/** A stored file as the API answers it (with its download address). */
export type FileValue = StoredFile & { url?: string };

/** The key file downloads are made with (the data browser's own). */
export const FileKeyContext = createContext<string | undefined>(undefined);
export const useFileKey = () => useContext(FileKeyContext);

/** The files a value holds: one, several (a `multiple` column) or none. */
export const filesIn = (value: unknown): FileValue[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter((f): f is FileValue => typeof f === "object" && f !== null && typeof (f as FileValue).name === "string");

const THUMBABLE = ["image/png", "image/jpeg", "image/webp", "image/gif"];
/** An image without a listed thumb is shown whole only when this small. */
const SMALL_IMAGE = 256 * 1024;

/** The address a small preview of the file loads from: a listed thumb, the file itself when small, else none. */
export const previewUrl = (column: Pick<Column, "thumbs">, file: FileValue) => {
  if (!file.url || !THUMBABLE.includes(file.type)) return undefined;
  const thumb = column.thumbs?.[0];
  if (thumb) return `${file.url}?thumb=${encodeURIComponent(thumb)}`;
  return file.size <= SMALL_IMAGE ? file.url : undefined;
};

/** An object URL of `url` fetched with the key; revoked when the component goes. */
export const useFileObjectUrl = (url: string | undefined, key: string | undefined) => {
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(() => {
    if (!url) return;
    let made: string | undefined;
    let gone = false;
    void fetch(url, { headers: key ? { "x-api-key": key } : {} })
      .then((res) => (res.ok ? res.blob() : undefined))
      .then((blob) => {
        if (!blob || gone) return;
        made = URL.createObjectURL(blob);
        setObjectUrl(made);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, key]);
  return url ? objectUrl : undefined;
};

/** Saves a file under its name: fetched with the key (`?download=1`), then handed to the browser. */
export const downloadFile = async (file: FileValue, key: string | undefined) => {
  if (!file.url) return;
  const res = await fetch(`${file.url}?download=1`, { headers: key ? { "x-api-key": key } : {} });
  if (!res.ok) throw new Error(`The download failed (${res.status}).`);
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = href;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
};

/** A link that downloads the file (with the key); the address stays a real one to copy. */
export const FileLink = ({ file, className = "", children }: { file: FileValue; className?: string; children: React.ReactNode }) => {
  const key = useFileKey();
  const click = (e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    void downloadFile(file, key).catch(() => undefined);
  };
  return (
    <a href={file.url ? `${file.url}?download=1` : undefined} download={file.name} onClick={click} className={`text-indigo-700 underline-offset-2 hover:underline ${className}`}>
      {children}
    </a>
  );
};

/** A small glyph for a file's kind, where there is no preview. */
export const FileTypeIcon = ({ type }: { type: string }) => {
  const label = type.startsWith("image/") ? "IMG" : type === "application/pdf" ? "PDF" : type.startsWith("text/") ? "TXT" : type.startsWith("video/") ? "VID" : type.startsWith("audio/") ? "AUD" : "FILE";
  return (
    <span aria-hidden className="inline-flex h-6 min-w-8 items-center justify-center rounded border border-slate-300 bg-slate-50 px-1 text-[10px] font-semibold text-slate-600">
      {label}
    </span>
  );
};

/** The bytes of a size in words (1.2 MB). */
export const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
