"use client";
import Editor, { loader, type OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import { useDatabase } from "../api/use-databases";
import { useRunSql } from "../api/use-sql";
import { LockNote } from "../ui/lock-note";
import { Button } from "../ui/button";
import { FormError, LoadingState } from "../ui/states";
import { THEME_EVENT } from "../shell/theme";
import { registerSqlCompletions } from "./sql-completions";
import { SqlResults } from "./sql-results";
import { SnippetBar } from "./snippet-bar";

// Monaco is served by this server from public/monaco (copied from node_modules at build time), never a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

type Monaco = Parameters<OnMount>[1];

/** Whether the page is dark now (the theme script's class), following the toggle. */
const useDarkPage = () => {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const read = () => setDark(document.documentElement.classList.contains("dark"));
    read();
    window.addEventListener(THEME_EVENT, read);
    return () => window.removeEventListener(THEME_EVENT, read);
  }, []);
  return dark;
};

const starter = (table?: string) => (table ? `SELECT *\nFROM ${table}\nORDER BY id DESC\nLIMIT 50` : "SELECT 1 AS one");

/** One read-only SELECT at a time, run with Ctrl/⌘+Enter or the button; table and column names complete. */
export const SqlConsole = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const db = database.data;
  const [sql, setSql] = useState<string | undefined>();
  const [monaco, setMonaco] = useState<Monaco | undefined>();
  const run = useRunSql(instance);
  const runRef = useRef(() => {});
  const dark = useDarkPage();
  const text = sql ?? starter(db?.tables[0]?.name);
  runRef.current = () => text.trim() && run.mutate(text);

  useEffect(() => {
    if (!monaco || !db) return;
    const registered = registerSqlCompletions(monaco, db.tables);
    return () => registered.dispose();
  }, [monaco, db]);

  if (!db) return <LoadingState label="Loading the schema…" />;
  if (db.role !== "owner" && db.role !== "admin") return <LockNote level="admin">The SQL console reads every row and column, so it is for them only.</LockNote>;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        One read-only <code>SELECT</code> over this database&apos;s tables: at most 5 seconds and 1,000 rows. Writes, schema changes and other schemas are refused.
      </p>
      <div className="h-48 overflow-hidden rounded-md border border-slate-300 md:h-56" data-testid="sql-console-editor">
        <Editor
          language="sql"
          value={text}
          theme={dark ? "vs-dark" : "light"}
          onChange={(v) => setSql(v ?? "")}
          onMount={(editor, m) => {
            setMonaco(m);
            editor.addCommand(m.KeyMod.CtrlCmd | m.KeyCode.Enter, () => runRef.current());
          }}
          options={{ minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, lineNumbers: "on", wordWrap: "on", ariaLabel: "SQL query" }}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="primary" onClick={() => runRef.current()} pending={run.isPending} disabled={!text.trim()}>
          Run <span className="text-xs opacity-80">Ctrl+Enter</span>
        </Button>
        <SnippetBar instance={instance} sql={text} onLoad={setSql} />
      </div>
      <FormError error={run.error} />
      {run.data && !run.isPending && <SqlResults answer={run.data} />}
    </div>
  );
};
