// The keyframes travel with the component (React 19 hoists and dedupes <style href precedence>).
const KEYFRAMES = "@keyframes tabula-progress{0%{transform:translateX(-100%)}100%{transform:translateX(300%)}}";

/** An indeterminate bar with a status line, for operations that take more than a moment. */
export const ProgressBar = ({ label }: { label: string }) => (
  <div role="progressbar" aria-label={label} aria-busy="true" className="space-y-1.5">
    <style href="tabula-progress" precedence="default">
      {KEYFRAMES}
    </style>
    <div className="h-1.5 overflow-hidden rounded-full bg-indigo-100">
      <div className="h-full w-1/3 rounded-full bg-indigo-600" style={{ animation: "tabula-progress 1.1s ease-in-out infinite" }} />
    </div>
    <p className="text-xs text-slate-600">{label}</p>
  </div>
);

/** A determinate bar: how much of `max` is used, amber once it is all used (a limit of 0 with none used stays empty). */
export const LevelBar = ({ label, value, max }: { label: string; value: number; max: number }) => {
  const full = value > 0 && value >= max;
  const percent = max > 0 ? Math.min(value / max, 1) * 100 : full ? 100 : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={`${value} of ${max}`}
      className="h-2 overflow-hidden rounded-full bg-slate-100"
    >
      <div className={`h-full rounded-full ${full ? "bg-amber-500" : "bg-indigo-600"}`} style={{ width: `${percent}%` }} />
    </div>
  );
};
