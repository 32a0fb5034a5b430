import type { AiStep } from "../api/types";
import { stepText } from "./build-text";

/** The agent's tool calls in order: the tool, what it was about, and whether the plan took it or why not. */
export const StepList = ({ steps, detailed = false }: { steps: AiStep[]; detailed?: boolean }) => (
  <ol className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white text-sm" aria-label="Steps">
    {steps.map((step, i) => (
      <li key={i} className="px-3 py-1.5" data-ok={step.ok}>
        <div className="flex items-baseline gap-2">
          <span className="w-5 shrink-0 text-right text-xs text-slate-400 tabular-nums">{i + 1}</span>
          <span className={step.ok ? "text-emerald-600" : "text-red-600"} aria-label={step.ok ? "ok" : "error"}>
            {step.ok ? "✓" : "✕"}
          </span>
          <span className="font-mono text-slate-900">{step.tool}</span>
          <span className="min-w-0 truncate text-slate-600">{stepText(step)}</span>
        </div>
        {step.error && <p className="mt-0.5 pl-12 text-xs text-red-700">{step.error}</p>}
        {detailed && (
          <details className="mt-1 pl-12">
            <summary className="cursor-pointer text-xs text-slate-500 hover:text-slate-800">Input</summary>
            <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-700">{JSON.stringify(step.input, null, 2)}</pre>
          </details>
        )}
      </li>
    ))}
  </ol>
);
