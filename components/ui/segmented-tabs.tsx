"use client";

export type SegmentedOption<T extends string> = { id: T; label: string };

/** A small row of tabs that switches a view in place (the joins editor's modes, the hooks page's views). */
export const SegmentedTabs = <T extends string>({ value, onChange, options, label }: {
  value: T;
  onChange: (id: T) => void;
  options: readonly SegmentedOption<T>[];
  label?: string;
}) => (
  <div role="tablist" aria-label={label} className="flex gap-1 rounded-md bg-slate-100 p-1">
    {options.map((o) => (
      <button
        key={o.id}
        role="tab"
        type="button"
        aria-selected={value === o.id}
        onClick={() => onChange(o.id)}
        className={`rounded px-3 py-1 text-sm font-medium ${value === o.id ? "bg-white text-slate-900 shadow-xs" : "text-slate-700 hover:text-slate-900"}`}
      >
        {o.label}
      </button>
    ))}
  </div>
);
