"use client";
import { useState } from "react";
import type { Table } from "../api/types";
import { HOOK_ACTIONS, type HookAction, type HookLog, type HookRunStatus, useHookLogs, useHooks } from "../api/use-hooks";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Field, SelectInput } from "../ui/field";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { formatDuration, StatusBadge, StepOutcomes } from "./step-outcomes";

const STATUSES: HookRunStatus[] = ["ok", "rejected", "failed"];
const LIMIT = 100;

const when = (iso: string) => new Date(iso).toLocaleString();

/** One run: its steps (opened at the failing one) and the row it was given. */
const RunDetail = ({ instance, log }: { instance: string; log: HookLog }) => {
  const hooks = useHooks(instance, log.table);
  return (
    <section aria-label={`Run ${log.id}`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <StatusBadge status={log.status} />
        <span className="font-mono text-slate-900">
          {log.table}.{log.action}
        </span>
        <span className="text-slate-500">
          {formatDuration(log.duration_ms)} · {when(log.created_at)}
        </span>
      </div>
      <StepOutcomes outcomes={log.steps} status={log.status} steps={hooks.data?.[log.action]} focusError />
      <div>
        <p className="mb-1 text-xs font-medium text-slate-700">Input</p>
        <pre aria-label="Run input" tabIndex={0} className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">
          {JSON.stringify(log.input, null, 2)}
        </pre>
      </div>
    </section>
  );
};

/** Every hook run of the database (kept 7 days), newest first, filtered by table, action and status. */
export const HookLogs = ({ instance, tables }: { instance: string; tables: Table[] }) => {
  const [table, setTable] = useState("");
  const [action, setAction] = useState<HookAction | "">("");
  const [status, setStatus] = useState<HookRunStatus | "">("");
  const [openId, setOpenId] = useState<number>();
  const logs = useHookLogs(instance, { table, status, _limit: LIMIT });
  // The API filters by table and status; the action is narrowed here.
  const shown = (logs.data ?? []).filter((l) => !action || l.action === action);
  const open = shown.find((l) => l.id === openId);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Log filters">
        <Field label="Table" htmlFor="logs-table" className="w-48">
          <SelectInput id="logs-table" value={table} onChange={(e) => setTable(e.target.value)}>
            <option value="">All tables</option>
            {tables.map((t) => (
              <option key={t.name}>{t.name}</option>
            ))}
          </SelectInput>
        </Field>
        <Field label="Action" htmlFor="logs-action" className="w-40">
          <SelectInput id="logs-action" value={action} onChange={(e) => setAction(e.target.value as HookAction | "")}>
            <option value="">All actions</option>
            {HOOK_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </SelectInput>
        </Field>
        <Field label="Status" htmlFor="logs-status" className="w-40">
          <SelectInput id="logs-status" value={status} onChange={(e) => setStatus(e.target.value as HookRunStatus | "")}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </SelectInput>
        </Field>
        <Button onClick={() => logs.refetch()} pending={logs.isFetching}>
          Refresh
        </Button>
      </div>
      {logs.isLoading ? (
        <LoadingState label="Loading runs…" />
      ) : logs.error ? (
        <ErrorState error={logs.error} title="Could not load the hook runs" onRetry={() => logs.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title="No runs">Every write through the data API to a table with hooks is logged here for 7 days.</EmptyState>
      ) : (
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <ul aria-label="Hook runs" className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
            {shown.map((l) => (
              <li key={l.id}>
                <button
                  type="button"
                  aria-label={`${l.status} ${l.table}.${l.action} run ${l.id}`}
                  aria-pressed={l.id === openId}
                  onClick={() => setOpenId(l.id)}
                  className={`flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-slate-50 ${l.id === openId ? "bg-indigo-50" : ""}`}
                >
                  <StatusBadge status={l.status} />
                  <span className="font-mono text-slate-900">{l.table}</span>
                  <Badge>{l.action}</Badge>
                  <span className="ml-auto text-xs whitespace-nowrap text-slate-500">
                    {formatDuration(l.duration_ms)} · {when(l.created_at)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {open ? <RunDetail key={open.id} instance={instance} log={open} /> : <p className="text-sm text-slate-500">Open a run to see its steps and input.</p>}
        </div>
      )}
      {logs.data?.length === LIMIT && <p className="text-xs text-slate-500">Showing the newest {LIMIT} runs.</p>}
    </div>
  );
};
