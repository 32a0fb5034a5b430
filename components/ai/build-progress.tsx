import type { AiBuild } from "../api/types";
import { ProgressBar } from "../ui/progress-bar";
import { plural } from "./build-text";
import { StepList } from "./step-list";

/**
 * A build in flight. The running build (polled) says whether the offline planner or a model works on it, and
 * lists the model's tool calls as they happen; before it is seen, the last build's planner is the best guess.
 */
export const BuildProgress = ({ running, offlineLast }: { running?: AiBuild; offlineLast?: boolean }) => {
  const offline = running ? running.offline : offlineLast;
  const label = offline
    ? "Planning offline…"
    : running
      ? `${running.model} is planning: ${plural(running.steps.length, "step")} so far…`
      : "Planning…";
  return (
    <section aria-label="Build progress" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <ProgressBar label={label} />
      {running && running.steps.length > 0 && <StepList steps={running.steps} />}
      {running && !running.offline && running.steps.length === 0 && <p className="text-xs text-slate-500">Waiting for the model’s first tool call…</p>}
    </section>
  );
};
