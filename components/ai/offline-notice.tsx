"use client";
import { useAiPlanner } from "../api/use-ai-builds";

const EXAMPLE = "A veterinary clinic: owners, their pets with a species, and appointments with a date and a status (booked, done, cancelled)";

const details = (
  <>
    <p className="mt-1">
      <span className="font-semibold">It can</span> build from your sentence’s own words: each thing you name in the plural becomes a table, what
      follows “with” becomes typed columns (price → decimal, “… date” → date, “… at” → date and time, counts → whole numbers, email → unique,
      status/type/priority → a dropdown with the options you list in brackets), “their”, “of”, “per”, “have” and “belongs to” become references,
      “which X … which Y” a link table; then one join and three sample rows per table. Try: <q className="italic">{EXAMPLE}</q>
    </p>
    <p className="mt-1">
      <span className="font-semibold">It cannot</span> guess tables you did not name, read free-form descriptions (“a shop selling soap” names
      fewer than two things and is refused), rules, calculations or permissions. Check the plan before you apply it.
    </p>
    <p className="mt-1">
      <span className="font-semibold">To connect a model</span>, start the server with <code className="font-mono">AI_BASE_URL</code> set to an
      OpenAI-compatible endpoint (and <code className="font-mono">AI_MODEL</code>, <code className="font-mono">AI_API_KEY</code> if it needs one),
      e.g. <code className="font-mono">AI_BASE_URL=http://127.0.0.1:11434/v1 AI_MODEL=qwen2.5:7b npm start</code>.
    </p>
  </>
);

/**
 * Said before any plan is generated or applied when no model is configured: what the offline planner reads
 * from a sentence, what it cannot do, and how to connect a model. Nothing shows while a model is configured.
 */
export const OfflineNotice = () => {
  const { data } = useAiPlanner();
  if (!data?.offline) return null;
  return (
    <section aria-label="No AI model configured" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2.5 text-xs leading-relaxed text-slate-800">
      <h3 className="text-sm font-semibold text-slate-900">No AI model is configured: the built-in offline planner plans (free)</h3>
      {/* On a phone the details fold under one line, so the builder itself stays in view. */}
      <div className="hidden md:block">{details}</div>
      <details className="mt-1 md:hidden">
        <summary className="cursor-pointer font-medium text-slate-900">What it can and cannot do, and how to connect a model</summary>
        {details}
      </details>
    </section>
  );
};
