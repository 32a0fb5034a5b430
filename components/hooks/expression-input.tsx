"use client";
import { useRef } from "react";
import { inputClass } from "../ui/field";

/** The expression with a marker under the character the CEL checker stopped at (1-based). */
export const Caret = ({ text, position }: { text: string; position: number }) => (
  <pre tabIndex={0} className="mt-1 overflow-x-auto rounded bg-red-50 px-2 py-1 font-mono text-xs text-red-700" data-testid="hook-caret">
    {text}
    {"\n"}
    {" ".repeat(Math.max(0, position - 1))}^
  </pre>
);

type Props = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Offered as `new.<column>` buttons that insert at the cursor. */
  columns: string[];
  /** `old.` is offered on update and delete, where a stored row exists. */
  withOld: boolean;
  invalid: boolean;
  disabled: boolean;
};

/** A CEL expression field with the table's columns one click away. */
export const ExpressionInput = ({ id, label, value, onChange, columns, withOld, invalid, disabled }: Props) => {
  const ref = useRef<HTMLInputElement>(null);
  const insert = (text: string) => {
    const input = ref.current;
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + text + value.slice(end));
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const offers = [...columns.map((c) => `new.${c}`), ...(withOld ? columns.map((c) => `old.${c}`) : []), "auth.id", "now"];
  return (
    <div>
      <input
        ref={ref}
        id={id}
        aria-label={label}
        aria-invalid={invalid || undefined}
        className={`${inputClass(invalid)} w-full font-mono`}
        spellCheck={false}
        placeholder="new.price * double(new.quantity)"
        value={value}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
      />
      {!disabled && (
        <div role="group" className="mt-1 flex flex-wrap gap-1" aria-label={`Shortcuts for ${label}`}>
          {offers.map((o) => (
            <button
              key={o}
              type="button"
              onClick={() => insert(o)}
              className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700 hover:bg-indigo-50 hover:text-indigo-700"
            >
              {o}
            </button>
          ))}
        </div>
      )}
    </div>
  );
};
