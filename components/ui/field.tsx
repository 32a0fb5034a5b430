import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

export const inputClass = (invalid?: boolean) =>
  `block rounded-md border bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 focus:outline-2 focus:-outline-offset-1 disabled:bg-slate-50 disabled:text-slate-500 ${
    invalid ? "border-red-400 focus:outline-red-500" : "border-slate-300 focus:outline-indigo-500"
  }`;

type FieldProps = { label: ReactNode; hint?: ReactNode; error?: string; children: ReactNode; className?: string; htmlFor?: string };

// Inputs fill their container unless the caller gives them a width.
const widthOf = (className: string) => (/(^|\s)w-/.test(className) ? "" : "w-full");

/** A label, the control, then either the API's error for this field or a hint. */
export const Field = ({ label, hint, error, children, className = "", htmlFor }: FieldProps) => (
  <div className={className}>
    <label htmlFor={htmlFor} className="mb-1 block text-xs font-medium text-slate-700">
      {label}
    </label>
    {children}
    {error ? (
      <p role="alert" id={htmlFor && `${htmlFor}-error`} className="field-error mt-1 text-xs text-red-600">
        {error}
      </p>
    ) : (
      hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>
    )}
  </div>
);

export const TextInput = ({ invalid, className = "", ...rest }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) => (
  <input aria-invalid={invalid || undefined} className={`${inputClass(invalid)} ${widthOf(className)} ${className}`} {...rest} />
);

export const SelectInput = ({ invalid, className = "", ...rest }: SelectHTMLAttributes<HTMLSelectElement> & { invalid?: boolean }) => (
  <select aria-invalid={invalid || undefined} className={`${inputClass(invalid)} ${widthOf(className)} pr-8 ${className}`} {...rest} />
);

export const TextArea = ({ invalid, className = "", ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }) => (
  <textarea aria-invalid={invalid || undefined} className={`${inputClass(invalid)} ${widthOf(className)} font-mono ${className}`} {...rest} />
);

export const Checkbox = ({ label, hint, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode }) => (
  <label className="flex items-start gap-2 text-sm text-slate-700">
    <input type="checkbox" className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600" {...rest} />
    <span>
      {label}
      {hint && <span className="block text-xs text-slate-500">{hint}</span>}
    </span>
  </label>
);
