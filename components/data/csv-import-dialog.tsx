"use client";
import { type ChangeEvent, useState } from "react";
import type { Table } from "../api/types";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { SelectInput } from "../ui/field";
import { type ColumnMapping, type CsvCell, csvToRecords, defaultMapping, parseCsv } from "./csv";
import { type ImportMode, type ImportResult, importRows, type PostRows, referenceProblems } from "./csv-transfer";
import type { ReadRows } from "./reference-display";
import { isSecret } from "@/lib/schema/type-traits";

type Props = { table: Table; post: PostRows; /** Reads referenced tables, so both modes report missing references alike. */ read?: ReadRows; onClose: () => void; onImported: () => void };

/** Pick a CSV file, map its headers to columns, choose all-or-nothing or valid rows only, read the report. */
export const CsvImportDialog = ({ table, post, read, onClose, onImported }: Props) => {
  const [cells, setCells] = useState<CsvCell[][] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [mode, setMode] = useState<ImportMode>("all");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const header = (cells?.[0] ?? []).map((h) => h ?? "");
  const columns = table.columns;

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    setResult(null);
    if (!file) return;
    try {
      const parsed = parseCsv(await file.text());
      if (parsed.length === 0) throw new Error("the file is empty");
      setCells(parsed);
      setMapping(defaultMapping(parsed[0].map((h) => h ?? ""), columns.filter((c) => !isSecret(c))));
      setFileError(null);
    } catch (err) {
      setCells(null);
      setFileError(err instanceof Error ? err.message : String(err));
    }
  };
  const run = async () => {
    if (!cells) return;
    setBusy(true);
    const { records, problems } = csvToRecords(cells, mapping, columns);
    const missing = read ? await referenceProblems(records, table, read).catch(() => []) : [];
    const outcome = await importRows(records, [...problems, ...missing].sort((a, b) => a.line - b.line), mode, post);
    setResult(outcome);
    setBusy(false);
    if (outcome.imported) onImported();
  };

  return (
    <Dialog open onClose={onClose} wide title={`Import CSV into ${table.name}`} description="The first line names the columns. Rows go through the data API's bulk POST, checked like any write.">
      <div className="space-y-4">
        <div>
          <label htmlFor="csv-file" className="mb-1 block text-xs font-medium text-slate-700">
            CSV file (RFC 4180; an empty field is NULL, <code>&quot;&quot;</code> is an empty text)
          </label>
          <input id="csv-file" type="file" accept=".csv,text/csv" onChange={pick} className="block text-sm text-slate-800" aria-describedby={fileError ? "csv-file-error" : undefined} />
          {fileError && (
            <p id="csv-file-error" role="alert" className="mt-1 text-xs text-red-700">
              {fileError}
            </p>
          )}
        </div>
        {cells && (
          <>
            <p className="text-sm text-slate-700">{cells.length - 1} rows read. Map the file&apos;s columns:</p>
            <table className="text-sm" aria-label="Column mapping">
              <thead>
                <tr className="text-left text-xs text-slate-700">
                  <th className="pr-4 pb-1 font-medium">Column of {table.name}</th>
                  <th className="pb-1 font-medium">From the file&apos;s column</th>
                </tr>
              </thead>
              <tbody>
                {columns.map((c) => (
                  <tr key={c.name}>
                    <td className="pr-4 font-mono">{c.name}</td>
                    <td className="py-0.5">
                      <SelectInput aria-label={`Source for ${c.name}`} className="w-56" value={mapping[c.name] ?? ""} onChange={(e) => setMapping({ ...mapping, [c.name]: e.target.value })}>
                        <option value="">— not imported —</option>
                        {header.map((h) => (
                          <option key={h} value={h}>
                            {h}
                          </option>
                        ))}
                      </SelectInput>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <fieldset className="space-y-1 text-sm text-slate-800">
              <legend className="mb-1 text-xs font-medium text-slate-700">If some rows are not valid</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="csv-mode" checked={mode === "all"} onChange={() => setMode("all")} className="accent-indigo-600" />
                All or nothing: import no row (one transaction)
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="csv-mode" checked={mode === "valid"} onChange={() => setMode("valid")} className="accent-indigo-600" />
                Valid rows only: import the others and list the rest
              </label>
            </fieldset>
          </>
        )}
        {result && (
          <section aria-label="Import report" className="space-y-2">
            <p role="status" className={`text-sm font-medium ${result.problems.length ? "text-amber-800" : "text-emerald-800"}`}>
              {result.imported} {result.imported === 1 ? "row" : "rows"} imported{result.problems.length ? `; ${result.problems.length} ${result.problems.length === 1 ? "problem" : "problems"}:` : "."}
            </p>
            {result.problems.length > 0 && (
              <ul className="max-h-48 overflow-y-auto rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                {result.problems.map((p, i) => (
                  <li key={i}>
                    {p.line > 0 ? `Line ${p.line}` : "File"}
                    {p.field && <span className="font-mono"> · {p.field}</span>}: {p.message}
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
      <DialogActions>
        <Button onClick={onClose}>{result ? "Close" : "Cancel"}</Button>
        {/* Imported rows are in the table now: importing the same file again would add them twice. */}
        <Button variant="primary" onClick={run} disabled={!cells || (!!result && result.imported > 0)} pending={busy}>
          Import
        </Button>
      </DialogActions>
    </Dialog>
  );
};
