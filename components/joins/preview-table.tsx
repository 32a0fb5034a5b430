"use client";
import { ApiRequestError, errorMessage } from "../api/api-error";

/** Every problem the API listed, or its one message. */
export const ErrorList = ({ error }: { error: unknown }) => {
  const lines = error instanceof ApiRequestError && error.errors.length > 1 ? error.errors.map((e) => e.message) : [errorMessage(error)];
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {lines.map((line) => <p key={line}>{line}</p>)}
    </div>
  );
};

/** The first rows of an unsaved join, or why the definition is not valid yet. */
export const PreviewTable = ({ rows, error, pending }: { rows?: Record<string, unknown>[]; error?: unknown; pending?: boolean }) => {
  if (error) return <ErrorList error={error} />;
  if (!rows) return <p className="text-sm text-slate-500">{pending ? "Reading the first rows…" : "Add tables, drag key pairs and tick columns to see a preview."}</p>;
  if (rows.length === 0) return <p className="text-sm text-slate-500">No rows match yet (the join would answer 200 []).</p>;
  const names = Object.keys(rows[0]);
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200">
      <table className="min-w-full text-left text-xs" aria-label="Join preview">
        <thead className="bg-slate-50 text-slate-600">
          <tr>{names.map((n) => <th key={n} className="px-2 py-1.5 font-mono font-medium">{n}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className="border-t border-slate-100">
              {names.map((n) => <td key={n} className="px-2 py-1.5 font-mono text-slate-800">{row[n] === null ? "null" : typeof row[n] === "object" ? JSON.stringify(row[n]) : String(row[n])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
