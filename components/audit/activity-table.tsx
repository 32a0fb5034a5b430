"use client";
import { Fragment, useState } from "react";
import type { AuditEntry } from "../api/types";
import { Badge } from "../ui/badge";
import { formatDateTime } from "../team/team-wording";

const VIA: Record<AuditEntry["via"], string> = { session: "dashboard", key: "API key", signature: "billing webhook", user: "app user" };

const json = (value: unknown) => JSON.stringify(value, null, 2);

const toneOf = (action: string) =>
  action.endsWith("signin.failed") ? "red" : /\.(delete|revoke|remove|disable)$/.test(action) ? "amber" : /^(user_)?signin\./.test(action) ? "green" : "slate";

const actorName = (e: AuditEntry) => e.actor.email ?? (e.actor.id === null ? "unknown" : `account ${e.actor.id}`);

const hasValues = (e: AuditEntry) => e.before !== undefined || e.after !== undefined;

const ValueBlock = ({ label, value }: { label: string; value: unknown }) => (
  <div className="min-w-0">
    <p className="mb-1 text-xs font-medium text-slate-700">{label}</p>
    <pre className="max-h-72 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs text-slate-800">{json(value)}</pre>
  </div>
);

/** Before and after (or the request, when nothing was replaced), under the row, the table's full width. */
const Values = ({ entry, colSpan }: { entry: AuditEntry; colSpan: number }) => (
  <tr aria-label={`Values of entry ${entry.id}`}>
    <td colSpan={colSpan} className="bg-slate-50 px-4 py-3">
      <div className="grid gap-3 md:grid-cols-2">
        {entry.before !== undefined && <ValueBlock label="Before" value={entry.before} />}
        {entry.after !== undefined && <ValueBlock label={entry.before === undefined ? "Request" : "After"} value={entry.after} />}
      </div>
    </td>
  </tr>
);

const th = "px-4 py-2 max-md:px-2";

/**
 * Audit entries, newest first: when, who and how, what, where, from which address; a row's values unfold under it.
 * On a phone who, the address and the database move under the other cells, so the table fits its width.
 */
export const ActivityTable = ({ entries, showDatabase }: { entries: AuditEntry[]; showDatabase: boolean }) => {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) => setOpen((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const columns = showDatabase ? 7 : 6;
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Activity">
        <thead className="bg-slate-50 text-left text-xs font-medium text-slate-600">
          <tr>
            <th className={th}>When</th>
            <th className={`${th} hidden md:table-cell`}>Who</th>
            <th className={th}>Action</th>
            {showDatabase && <th className={`${th} hidden lg:table-cell`}>Database</th>}
            <th className={th}>Target</th>
            <th className={`${th} hidden md:table-cell`}>From</th>
            <th className={th}>
              <span className="sr-only">Values</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((e) => (
            <Fragment key={e.id}>
              <tr data-entry={e.id} className="align-top">
                <td className="px-4 py-2.5 text-slate-700 max-md:px-2">
                  <time dateTime={e.at} className="md:whitespace-nowrap">
                    {formatDateTime(e.at)}
                  </time>
                  <span className="block max-w-40 truncate text-xs text-slate-800 md:hidden">{actorName(e)}</span>
                  <span className="block font-mono text-xs text-slate-600 md:hidden">{e.ip ?? ""}</span>
                </td>
                <td className="hidden max-w-56 px-4 py-2.5 md:table-cell">
                  <span className="block truncate text-slate-900" title={e.actor.email ?? undefined}>
                    {actorName(e)}
                  </span>
                  <span className="text-xs text-slate-600">via {VIA[e.via]}</span>
                </td>
                <td className="px-4 py-2.5 max-md:px-2">
                  <Badge tone={toneOf(e.action)}>{e.action}</Badge>
                </td>
                {showDatabase && <td className="hidden px-4 py-2.5 font-mono text-xs whitespace-nowrap text-slate-700 lg:table-cell">{e.database ?? "—"}</td>}
                <td className="max-w-64 px-4 py-2.5 break-words text-slate-800 max-md:px-2">
                  {e.target}
                  {showDatabase && e.database && <span className="block font-mono text-xs break-all text-slate-600 lg:hidden">{e.database}</span>}
                </td>
                <td className="hidden px-4 py-2.5 font-mono text-xs whitespace-nowrap text-slate-600 md:table-cell">{e.ip ?? "—"}</td>
                <td className="px-4 py-2.5 text-right max-md:px-2">
                  {hasValues(e) && (
                    <button
                      type="button"
                      aria-expanded={open.has(e.id)}
                      onClick={() => toggle(e.id)}
                      className="rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-indigo-700 hover:bg-indigo-50"
                    >
                      {open.has(e.id) ? "Hide values" : "Values"}
                    </button>
                  )}
                </td>
              </tr>
              {open.has(e.id) && <Values entry={e} colSpan={columns} />}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
};
