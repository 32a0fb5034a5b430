"use client";
// A file column's grid cell: a thumbnail (or a type glyph) and the name of the first file, "+N" for the rest
// of a `multiple` column's files; the name downloads the file.
import type { Column } from "../api/types";
import { FileLink, FileTypeIcon, filesIn, previewUrl, useFileKey, useFileObjectUrl } from "./file-access";

export const FileCell = ({ column, value }: { column: Pick<Column, "thumbs">; value: unknown }) => {
  const files = filesIn(value);
  const key = useFileKey();
  const first = files[0];
  const preview = useFileObjectUrl(first ? previewUrl(column, first) : undefined, key);
  if (!first) return <>NULL</>;
  return (
    <span className="inline-flex max-w-full items-center gap-1.5 not-italic">
      {preview ? (
        <img src={preview} alt="" className="size-6 shrink-0 rounded object-cover" data-testid="file-thumb" />
      ) : (
        <FileTypeIcon type={first.type} />
      )}
      <FileLink file={first} className="truncate">
        {first.name}
      </FileLink>
      {files.length > 1 && (
        <span className="shrink-0 text-xs text-slate-600" title={files.slice(1).map((f) => f.name).join("\n")}>
          +{files.length - 1}
        </span>
      )}
    </span>
  );
};
