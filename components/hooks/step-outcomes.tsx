"use client";
import { useEffect, useRef } from "react";
import type { HookRunStatus, HookStep, HookStepOutcome } from "../api/use-hooks";
import { Badge } from "../ui/badge";

const TONE: Record<HookRunStatus, "green" | "amber" | "slate"> = { ok: "green", rejected: "amber", failed: "slate" };

export const StatusBadge = ({ status }: { status: HookRunStatus }) =>
  status === "failed" ? (
    <span className="inline-flex items-center rounded bg-red-50 px-1.5 py-0.5 text-[11px] font-medium text-red-700 ring-1 ring-red-200 ring-inset">failed</span>
  ) : (
    <Badge tone={TONE[status]}>{status}</Badge>
  );

const describe = (step: HookStep | undefined) => (!step ? "" : "set" in step ? `${step.set} = ${step.expr}` : `assert ${step.assert}`);

export const formatDuration = (ms: number) => `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms`;

export const formatValue = (value: unknown) => (value === undefined ? "" : JSON.stringify(value));

type Props = {
  outcomes: HookStepOutcome[];
  /** On a rejected run the stopping step is the assert that gave false. */
  status: HookRunStatus;
  /** The steps as they are now, to say what each index ran (a logged run may predate an edit). */
  steps?: HookStep[];
  /** Scroll the first failing step into view when shown (a log opened from the list). */
  focusError?: boolean;
};

/** Each step's result or error, in order; the failing one highlighted. */
export const StepOutcomes = ({ outcomes, status, steps, focusError = false }: Props) => {
  const failing = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focusError) failing.current?.scrollIntoView({ block: "center" });
  }, [focusError, outcomes]);
  const firstError = status === "rejected" ? outcomes.findLastIndex((o) => o.result === false) : outcomes.findIndex((o) => o.error !== undefined);
  if (outcomes.length === 0) return <p className="text-sm text-slate-500">No steps ran.</p>;
  return (
    <ol className="space-y-1" aria-label="Steps">
      {outcomes.map((o, i) => {
        const failed = i === firstError || o.error !== undefined;
        return (
          <li
            key={o.index}
            ref={i === firstError ? failing : undefined}
            aria-label={`Step ${o.index}`}
            aria-current={i === firstError ? "step" : undefined}
            data-failing={failed || undefined}
            className={`rounded-md border px-3 py-2 text-sm ${failed ? "border-red-300 bg-red-50 ring-2 ring-red-200" : "border-slate-200 bg-white"}`}
          >
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="font-mono text-xs text-slate-500">#{o.index}</span>
              {steps?.[o.index] && <code className="font-mono text-xs text-slate-700">{describe(steps[o.index])}</code>}
            </div>
            {o.error !== undefined ? (
              <p className="mt-1 font-mono text-xs text-red-700">✗ {o.error}</p>
            ) : (
              <p className={`mt-1 font-mono text-xs ${failed ? "text-red-700" : "text-emerald-700"}`}>→ {formatValue(o.result)}</p>
            )}
          </li>
        );
      })}
    </ol>
  );
};
