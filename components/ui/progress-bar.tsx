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
