import type { AiPlanView } from "../api/types";
import { Badge } from "../ui/badge";

type PlanJoin = AiPlanView["joins"][number];

const Label = ({ children }: { children: string }) => <p className="mb-1 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{children}</p>;

/** A planned join: its tables in order (base first), the key pairs that link them, and the output columns. */
export const PlanJoinCard = ({ join, path, added = false }: { join: PlanJoin; path?: string; added?: boolean }) => (
  <article aria-label={`Planned join ${join.name}`} className="space-y-3 rounded-md border border-slate-200 bg-white p-3">
    <div className="flex flex-wrap items-center gap-2">
      <span className="font-mono text-sm font-semibold text-slate-900">{join.name}</span>
      {added && <Badge tone="green">new join</Badge>}
      {path && <code className="ml-auto font-mono text-xs text-slate-500">GET {path}</code>}
    </div>
    <div>
      <Label>Tables</Label>
      <p className="flex flex-wrap items-center gap-1.5 text-sm" aria-label="Joined tables">
        <span className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono text-indigo-800" title="base table">
          {join.base} <span className="text-[10px] text-indigo-700">base</span>
        </span>
        {join.joins.map((j) => (
          <span key={j.table} className="flex items-center gap-1.5">
            <span className="text-slate-400">⋈</span>
            <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800">{j.table}</span>
          </span>
        ))}
      </p>
    </div>
    <div>
      <Label>Key pairs</Label>
      <ul className="space-y-0.5 font-mono text-xs text-slate-700" aria-label="Key pairs">
        {join.joins.flatMap((j) => j.on.map(([a, b]) => <li key={`${a}=${b}`}>{`${a} = ${b}`}</li>))}
      </ul>
    </div>
    <div>
      <Label>Output columns</Label>
      <ul className="flex flex-wrap gap-1.5" aria-label="Output columns">
        {join.columns.map((c) => (
          <li key={c.as} className="rounded border border-slate-200 px-1.5 py-0.5 font-mono text-xs text-slate-700">
            {c.as} <span className="text-slate-400">← {c.column}</span>
          </li>
        ))}
      </ul>
    </div>
  </article>
);
