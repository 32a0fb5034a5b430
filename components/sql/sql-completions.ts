import type { OnMount } from "@monaco-editor/react";
import type { editor, Position } from "monaco-editor";
import type { Table } from "../api/types";

type Monaco = Parameters<OnMount>[1];

const SYSTEM = ["id", "created_at", "updated_at"];

/** Table names, then every column bare and as `table.column`, for Monaco's SQL completion. Returns its disposer. */
export const registerSqlCompletions = (monaco: Monaco, tables: Pick<Table, "name" | "columns">[]) =>
  monaco.languages.registerCompletionItemProvider("sql", {
    provideCompletionItems: (model: editor.ITextModel, position: Position) => {
      const word = model.getWordUntilPosition(position);
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn };
      const { Class, Field } = monaco.languages.CompletionItemKind;
      const suggestions = tables.flatMap((t) => {
        const columns = [...SYSTEM, ...t.columns.map((c) => c.name)];
        return [
          { label: t.name, kind: Class, insertText: t.name, detail: "table", range },
          ...columns.flatMap((c) => [
            { label: c, kind: Field, insertText: c, detail: `column of ${t.name}`, range },
            { label: `${t.name}.${c}`, kind: Field, insertText: `${t.name}.${c}`, detail: "column", range },
          ]),
        ];
      });
      return { suggestions };
    },
  });
