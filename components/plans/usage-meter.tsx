import type { ReactNode } from "react";
import { LevelBar } from "../ui/progress-bar";

type Props = { label: string; used: number; limit: number | null; detail?: ReactNode };

/** One use against its limit: a bar while there is a limit, the count and "unlimited" when there is none. */
export const UsageMeter = ({ label, used, limit, detail }: Props) => (
  <div>
    <div className="flex items-baseline justify-between gap-3 text-sm">
      <span className="font-medium text-slate-900">{label}</span>
      <span className="text-slate-700 tabular-nums">
        {limit === null ? `${used.toLocaleString()} · unlimited` : `${used.toLocaleString()} of ${limit.toLocaleString()}`}
      </span>
    </div>
    <div className="mt-1.5">
      {limit === null ? <div className="h-2 rounded-full border border-dashed border-slate-300" aria-hidden="true" /> : <LevelBar label={label} value={used} max={limit} />}
    </div>
    {detail && <p className="mt-1.5 text-xs text-slate-500">{detail}</p>}
  </div>
);
