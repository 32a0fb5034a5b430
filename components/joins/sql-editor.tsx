"use client";
import Editor, { loader, type OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import { ApiRequestError } from "../api/api-error";
import type { Join, Table } from "../api/types";
import { PreviewTable } from "./preview-table";
import { starterSql } from "./starter-sql";
import { SaveJoinBar } from "./save-join-bar";
import { useJoinPreview } from "./use-join-preview";

// Monaco is served by this server from public/monaco (copied from node_modules at build time), never a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

type Monaco = Parameters<OnMount>[1];
type MonacoEditor = Parameters<OnMount>[0];


/** "… (at line 3, column 12)" in an API message → a marker on that spot. */
const markerOf = (error: unknown) => {
  if (!(error instanceof ApiRequestError)) return undefined;
  const found = /at line (\d+), column (\d+)\)/.exec(error.message);
  return found ? { line: Number(found[1]), column: Number(found[2]), message: error.message } : undefined;
};

/** SQL mode: a SELECT … JOIN … checked and previewed by the server as you type, saved as the same definition. */
type Props = { instance: string; tables: Table[]; /** A saved join to edit: its name and SQL. */ editing?: { name: string; sql: string }; onSaved?: (saved: Join) => void };

export const SqlEditor = ({ instance, tables, editing, onSaved }: Props) => {
  const [sql, setSql] = useState(() => editing?.sql ?? starterSql(tables));
  const editor = useRef<{ editor: MonacoEditor; monaco: Monaco } | null>(null);
  const preview = useJoinPreview(instance, sql.trim() ? { sql } : undefined, 500);

  useEffect(() => {
    const m = editor.current;
    const model = m?.editor.getModel();
    if (!m || !model) return;
    const marker = markerOf(preview.error);
    m.monaco.editor.setModelMarkers(model, "tabula", marker
      ? [{ startLineNumber: marker.line, startColumn: marker.column, endLineNumber: marker.line, endColumn: marker.column + 1, message: marker.message, severity: m.monaco.MarkerSeverity.Error }]
      : []);
  }, [preview.error]);

  return (
    <div className="space-y-4">
      <div className="h-56 overflow-hidden rounded-md border border-slate-300" data-testid="sql-editor">
        <Editor
          language="sql"
          value={sql}
          onChange={(v) => setSql(v ?? "")}
          onMount={(e, monaco) => (editor.current = { editor: e, monaco })}
          options={{ minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, lineNumbers: "on", wordWrap: "on" }}
        />
      </div>
      <p className="text-xs text-slate-500">
        One SELECT of <code>table.column [AS name]</code> from this database&apos;s tables, joined with <code>[INNER] JOIN … ON a.x = b.y [AND …]</code>. Filters, sorting and paging come from the query parameters of the join&apos;s API path.
      </p>
      <section aria-label="Preview" className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-800">Preview (first rows)</h3>
        <PreviewTable rows={preview.rows} error={preview.error} pending={preview.pending} />
      </section>
      <SaveJoinBar instance={instance} input={sql.trim() ? { sql } : undefined} editing={editing?.name} onSaved={onSaved} />
    </div>
  );
};
